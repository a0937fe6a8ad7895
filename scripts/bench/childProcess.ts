import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface RunningChild {
  readonly child: ChildProcess;
  /** Peak resident set size in bytes (VmHWM), read from /proc. */
  peakRssBytes(): number;
  /** Current resident set size in bytes (VmRSS). */
  rssBytes(): number;
  stop(): Promise<void>;
}

const procStatusKb = (pid: number, field: 'VmHWM' | 'VmRSS'): number => {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/**
 * Starts a TypeScript entry point in its own process (so the load generator and the server do
 * not share an event loop) and resolves once it prints a line matching `ready`.
 */
export const startChild = async (
  entry: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; ready: RegExp | { healthUrl: string }; timeoutMs?: number },
): Promise<RunningChild & { match: RegExpExecArray }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not become ready:\n${output.slice(-2000)}`)), options.timeoutMs ?? 60_000);
    const ready = options.ready;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready instanceof RegExp ? ready.exec(output) : null;
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    if (!(ready instanceof RegExp)) {
      // Processes that log nothing at the chosen level are ready when their health route answers.
      const poll = async (): Promise<void> => {
        while (child.exitCode === null) {
          const ok = await fetch(ready.healthUrl).then((r) => r.ok, () => false);
          if (ok) {
            clearTimeout(timer);
            resolve(/(.*)/.exec(ready.healthUrl) as RegExpExecArray);
            return;
          }
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      void poll();
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
  // Keep draining output so the child never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  const pid = child.pid ?? 0;
  return {
    child,
    match,
    peakRssBytes: () => procStatusKb(pid, 'VmHWM'),
    rssBytes: () => procStatusKb(pid, 'VmRSS'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
};
