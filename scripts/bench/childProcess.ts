import type { ChildProcess } from 'node:child_process';
import { spawnNodeChild, waitUntilHealthy, type NodeChild } from '@pubstream/testing';

export interface RunningChild {
  readonly child: ChildProcess;
  /** Peak resident set size in bytes (VmHWM), read from /proc. */
  peakRssBytes(): number;
  /** Current resident set size in bytes (VmRSS). */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** When a started process is ready: a line of its output matches, or its health route answers 2xx. */
export type Readiness = RegExp | { healthUrl: string };

/**
 * Starts a TypeScript entry point in its own process (so the load generator and the server do
 * not share an event loop) and resolves once it is ready; a process that exits or is not ready
 * within the time is killed and its last output reported.
 */
export const startChild = async (
  entry: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; ready: Readiness; timeoutMs?: number },
): Promise<RunningChild & { match: RegExpExecArray }> => {
  // BENCH_CPU_PROF_DIR=<dir>: every started process writes a --cpu-prof profile there when it exits.
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const node = spawnNodeChild(entry, args, { cwd: process.cwd(), env: { ...process.env, ...options.env }, nodeArgs });
  try {
    const match = await waitForReadiness(node, entry, options.ready, options.timeoutMs ?? 60_000);
    return { child: node.child, match, peakRssBytes: () => node.memory().peak, rssBytes: () => node.memory().rss, stop: () => node.stop(5_000) };
  } catch (error) {
    await node.kill();
    throw error;
  }
};

const waitForReadiness = async (node: NodeChild, entry: string, ready: Readiness, timeoutMs: number): Promise<RegExpExecArray> => {
  if (!(ready instanceof RegExp)) {
    // Processes that log nothing at the chosen level are ready when their health route answers.
    await waitUntilHealthy(node, ready.healthUrl, { what: entry, timeoutMs, everyMs: 200, healthy: (status) => status >= 200 && status < 300 });
    return /(.*)/.exec(ready.healthUrl) as RegExpExecArray;
  }
  return new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${entry} did not become ready:\n${node.output().slice(-2000)}`)), timeoutMs);
    const check = () => {
      const found = ready.exec(node.output());
      if (found) finish(found);
    };
    const finish = (outcome: RegExpExecArray | Error) => {
      clearTimeout(timer);
      node.child.stdout?.off('data', check);
      node.child.stderr?.off('data', check);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    node.child.stdout?.on('data', check);
    node.child.stderr?.on('data', check);
    void node.exited.then((code) => finish(new Error(`${entry} exited with ${code}:\n${node.output().slice(-2000)}`)));
    check();
  });
};
