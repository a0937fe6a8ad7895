// `pubstream start` as its own process (`node --import tsx apps/cli/src/main.ts start`), for tests
// about a process dying, its memory or its time: they must not share the test's event loop or heap.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@pubstream/testing';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface StartedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** stdout + stderr so far. */
  output(): string;
  isRunning(): boolean;
  /** Resident set size now (VmRSS) and its peak since start (VmHWM), in bytes; 0 once gone. */
  memory(): { rss: number; peak: number };
  /** SIGTERM, SIGKILL after 10 s; removes the data directory. */
  stop(): Promise<void>;
}

const statusKb = (text: string, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;

/** Starts the embedded profile on free loopback ports with a SQLite log in a fresh directory. */
export const startPubstreamProcess = async (env: Record<string, string> = {}): Promise<StartedProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-proc-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = 'edge-test-admin-token-0123456789';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start', '--no-demo'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      HOST: '127.0.0.1',
      ADMIN_HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: adminToken,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let running = true;
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      running = false;
      process.off('exit', killOnExit);
      done();
    }),
  );
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running) throw new Error(`pubstream start exited:\n${output.slice(-3_000)}`);
    const ok = await fetch(`${adminUrl}/healthz`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pubstream start did not answer /healthz within 60 s:\n${output.slice(-3_000)}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const pid = child.pid ?? 0;
  return {
    child,
    pid,
    publicUrl: `http://127.0.0.1:${port}`,
    adminUrl,
    adminToken,
    output: () => output,
    isRunning: () => running,
    memory() {
      try {
        const text = readFileSync(`/proc/${pid}/status`, 'utf8');
        return { rss: statusKb(text, 'VmRSS'), peak: statusKb(text, 'VmHWM') };
      } catch {
        return { rss: 0, peak: 0 };
      }
    },
    async stop() {
      if (running) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
