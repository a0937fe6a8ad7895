import { spawn, type ChildProcess } from 'node:child_process';
import { sleep } from './eventually.js';
import { processMemory, type ProcessMemory } from './processMemory.js';

/** A TypeScript entry point running in a process of its own, for tests about processes. */
export interface NodeChild {
  readonly child: ChildProcess;
  readonly pid: number;
  /** stdout + stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  isRunning(): boolean;
  /** Resident and peak memory now; zeros once gone. */
  memory(): ProcessMemory;
  /** SIGKILL (a crash), then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM and waits for the exit; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Where and how to start the process; `env` is all it gets (plus nothing: pass PATH and HOME). */
export interface NodeChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Node flags before `--import tsx` (e.g. `--cpu-prof`, which NODE_OPTIONS does not allow). */
  nodeArgs?: readonly string[];
}

/**
 * Spawns `node --import tsx <entry> <args>` with its output captured. The child is SIGKILLed if
 * the test process itself ends first, so no server outlives the run.
 */
export const spawnNodeChild = (entry: string, args: readonly string[], options: NodeChildOptions): NodeChild => {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', entry, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let running = true;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      process.off('exit', killOnExit);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const pid = child.pid ?? 0;
  return {
    child,
    pid,
    output: () => output,
    exited,
    isRunning: () => running,
    memory: () => processMemory(pid),
    kill: async () => {
      if (running) child.kill('SIGKILL');
      await exited;
    },
    stop: async (graceMs = 10_000) => {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
};

/**
 * Waits until `url` answers with a status `healthy` accepts, polling every `everyMs`. Fails as soon
 * as the child exits, or after `timeoutMs`; the message ends with the child's last output.
 */
export const waitUntilHealthy = async (
  node: Pick<NodeChild, 'isRunning' | 'output'>,
  url: string,
  options: { timeoutMs: number; everyMs: number; what: string; healthy: (status: number) => boolean },
): Promise<void> => {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (!node.isRunning()) throw new Error(`${options.what} exited:\n${node.output().slice(-3_000)}`);
    const response = await fetch(url).catch(() => null);
    if (response !== null) {
      await response.text();
      if (options.healthy(response.status)) return;
    }
    if (Date.now() > deadline) throw new Error(`${options.what} did not answer ${url} within ${options.timeoutMs} ms:\n${node.output().slice(-3_000)}`);
    await sleep(options.everyMs);
  }
};
