import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '@pubstream/testing';
import {
  busiestShare,
  openRetryingSubscribers,
  startArrivalRecorder,
  type RetryingSubscribers,
} from '../../apps/api/src/subscribe/testing/retryingSubscribers.js';

/**
 * Reconnect storm (issue 15, finding 9): 2,000 streams on a real `pubstream start` process that gets
 * SIGTERM. The clients behave as EventSource does (they wait the stream's last `retry:` before
 * reconnecting, to a recorder standing for the other node). Their reconnections must spread over
 * SHUTDOWN_RECONNECT_WINDOW_MS, not land in one second, and the node must exit promptly.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'storm-admin-token-0123456789';
const WINDOW_MS = 6_000;
const STREAMS = 2_000;
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-storm-'));
let child: ChildProcess | undefined;
let subscribers: RetryingSubscribers | undefined;

afterAll(() => {
  subscribers?.close();
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
};

it(`spreads the reconnections of ${STREAMS} streams of a node that shuts down over the window, and the node exits promptly`, async () => {
  const [port, adminPort] = [await freePort(), await freePort()];
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start', '--no-demo'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SHUTDOWN_RECONNECT_WINDOW_MS: String(WINDOW_MS),
      MAX_STREAMS_PER_ADDRESS: '0',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child?.once('exit', (code) => done(code)));
  const publicUrl = `http://127.0.0.1:${port}`;
  await until('the service to listen', async () => (await fetch(`${publicUrl}/healthz`).catch(() => null))?.ok === true, 60_000);

  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${adminPort}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ key?: string }>;
  };
  await admin('PUT', '/plan', { plan: 'enterprise', monthlyQuota: null });
  await admin('POST', '/collections', { slug: 'live', name: 'Live' });
  const { key } = await admin('POST', '/keys', { name: 'storm', type: 'live', allowedDomains: [], rateLimit: 100_000 });

  const recorder = await startArrivalRecorder();
  try {
    subscribers = await openRetryingSubscribers(`${publicUrl}/subscribe?apiKey=${key}&collections=live`, STREAMS, {
      reconnectUrl: recorder.url,
      // What a browser's EventSource waits when the server sent no retry: (about 3 s): all alike.
      defaultRetryMs: 3_000,
    });
    expect(subscribers.connected()).toBe(STREAMS);

    const signalledAt = performance.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const exitedAfterMs = performance.now() - signalledAt;
    await until('every reconnection', () => recorder.arrivals.length >= STREAMS, WINDOW_MS + 15_000);

    // Every stream was told why, and how long to wait.
    expect(subscribers.ended).toHaveLength(STREAMS);
    expect(subscribers.ended.filter((stream) => stream.reconnect?.reason === 'shutdown')).toHaveLength(STREAMS);
    const share = busiestShare(recorder.arrivals, signalledAt, 1_000);
    const spanMs = Math.max(...recorder.arrivals) - Math.min(...recorder.arrivals);
    console.log(
      `reconnect storm: ${STREAMS} streams, window ${WINDOW_MS} ms: node exited after ${Math.round(exitedAfterMs)} ms; ` +
        `reconnections spread over ${Math.round(spanMs)} ms, busiest second ${Math.round(share * 100)} %`,
    );
    // An even spread puts a sixth in each second of a 6 s window; all in one second is the storm.
    expect(share).toBeLessThan(0.45);
    expect(spanMs).toBeGreaterThan(WINDOW_MS / 2);
    // The node does not wait for the window: it exits well within SHUTDOWN_TIMEOUT_MS (10 s).
    expect(exitedAfterMs).toBeLessThan(10_000);
  } finally {
    await recorder.close();
  }
  if (output.includes('"level":"error"')) throw new Error(`errors logged:\n${output.slice(-3_000)}`);
}, 120_000);
