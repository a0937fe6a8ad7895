import { readFileSync } from 'node:fs';

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every mainstream kernel). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; NaN where there
 * is no /proc. The CPU a server spends on a load is a steadier measure on a shared machine than
 * its latency, which follows the load of the moment.
 */
export const processCpuSeconds = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state field (3rd).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
};
