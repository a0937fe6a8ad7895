import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@pubstream/testing';

// A real `pubstream start --no-demo` (both APIs, the projector, SQLite) for the tests that judge
// whole answers over HTTP: the fuzz target and the OpenAPI contract test.

const ROOT = resolve(import.meta.dirname, '../../..');

export interface PubstreamUnderTest {
  readonly port: number;
  readonly adminPort: number;
  readonly adminToken: string;
  /** An admin call with the token; throws on a non-2xx answer. */
  admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** stdout and stderr so far. */
  output(): string;
  exitCode(): number | null;
  stop(): void;
}

const waitForHealth = async (child: ChildProcess, port: number, output: () => string): Promise<void> => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`server did not come up:\n${output()}`);
};

export const startPubstream = async (options: { adminToken: string; env?: Record<string, string> }): Promise<PubstreamUnderTest> => {
  const port = await freePort();
  const adminPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start', '--no-demo'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), ADMIN_PORT: String(adminPort), HOST: '127.0.0.1', ADMIN_TOKEN: options.adminToken, LOG_LEVEL: 'error', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const stop = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(child, port, () => output);
  } catch (error) {
    stop();
    throw error;
  }
  return {
    port,
    adminPort,
    adminToken: options.adminToken,
    async admin(method, path, body) {
      const response = await fetch(`http://127.0.0.1:${adminPort}${path}`, {
        method,
        headers: { Authorization: `Bearer ${options.adminToken}`, 'Content-Type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    },
    output: () => output,
    exitCode: () => child.exitCode,
    stop,
  };
};
