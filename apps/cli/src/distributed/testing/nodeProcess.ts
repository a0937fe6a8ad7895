import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const MAIN = 'apps/cli/src/main.ts';

/** A loopback port nobody listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined; fails with `what` after `timeoutMs`. */
export const eventually = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 50): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError instanceof Error ? ` (last error: ${lastError.message})` : ''}`);
    await sleep(everyMs);
  }
};

/** Resolves once the process answers /healthz; kills it and fails with its output otherwise. */
const untilHealthy = async (node: NodeProcess, timeoutMs: number): Promise<void> => {
  try {
    await eventually(
      `${node.role} on ${node.url} to answer /healthz`,
      async () => {
        if (!node.isRunning()) throw new Error(`${node.role} exited: ${node.output().slice(-2_000)}`);
        const response = await fetch(`${node.url}/healthz`).catch(() => null);
        if (response === null) return undefined;
        await response.text();
        return response.status < 500 ? true : undefined;
      },
      timeoutMs,
      100,
    );
  } catch (error) {
    await node.kill();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${node.output().slice(-3_000)}`, { cause: error });
  }
};

export interface NodeProcess {
  readonly role: string;
  readonly child: ChildProcess;
  /** http://127.0.0.1:PORT: the API, the admin API, or the projector's health and metrics listener (the port the test chose). */
  readonly url: string;
  /** stdout + stderr so far (pino JSON lines). */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  isRunning(): boolean;
  /** SIGKILL: a crash. */
  kill(): Promise<void>;
  /** SIGTERM and wait (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns `node --import tsx apps/cli/src/main.ts <role>` (the real CLI) with `env` over a minimal
 * base environment. It chooses a free port (PORT, ADMIN_PORT or PROJECTOR_PORT) and resolves once
 * /healthz answers there.
 */
export const startNodeProcess = async (
  role: 'api' | 'projector' | 'admin',
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  /** false: resolve at once (a process that may exit on purpose before it answers, e.g. a crash test). */
  waitUntilHealthy = true,
): Promise<NodeProcess> => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, role], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ADMIN_HOST: '127.0.0.1',
      ...(role === 'api' ? { PORT: String(port) } : role === 'admin' ? { ADMIN_PORT: String(port) } : { PROJECTOR_PORT: String(port) }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave a server behind when the test process itself ends abruptly.
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
  const url = `http://127.0.0.1:${port}`;
  const node: NodeProcess = {
    role,
    child,
    url,
    output: () => output,
    exited,
    isRunning: () => running,
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
  if (waitUntilHealthy) await untilHealthy(node, readyTimeoutMs);
  return node;
};
