import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, from /proc; NaN where there is none. On a
 * shared machine the server's CPU per request is steadier than its request rate (docs/public-api.md,
 * "Hot path").
 */
export const processCpuSeconds = (pid: number | undefined): number => {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
};

/** Microseconds of CPU per request between two readings. */
export const cpuMicrosPerRequest = (before: number, after: number, requests: number): number => ((after - before) * 1e6) / Math.max(1, requests);
