import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { normalizePath } from '@pubstream/http';
import { freePort } from '@pubstream/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequests, encodeRequest, publicRequests, type FuzzRequest, type FuzzWorld } from './support/fuzzRequests.js';
import { rawSocketHttp, type RawSocketResponse } from './support/rawSocketHttp.js';

// The fuzz target of docs/security.md: thousands of generated requests (valid, mutated and junk:
// bad paths, encodings, compressed and deep bodies, wrong keys and tokens) against a real
// `pubstream start` process over raw HTTP. Every answer must be a non-5xx with a JSON body (HTML
// on the dashboard, an event stream on /subscribe), and the process must stay up and healthy.

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'fuzz-admin-token-0123456789';
/** Per API; fast-check stops early when the time is up (and reports what it found so far). */
const TIME_LIMIT_MS = Number(process.env.PUBSTREAM_FUZZ_MS ?? 40_000);
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-fuzz-'));
let child: ChildProcess;
let output = '';
let world: FuzzWorld;
let adminPort = 0;

const admin = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(`http://127.0.0.1:${adminPort}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
};

const waitForHealth = async (port: number): Promise<void> => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`server did not come up:\n${output}`);
};

beforeAll(async () => {
  const port = await freePort();
  adminPort = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'start', '--no-demo'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), ADMIN_PORT: String(adminPort), HOST: '127.0.0.1', ADMIN_TOKEN, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await waitForHealth(port);
  await admin('PUT', '/admin/plan', { plan: 'business' });
  await admin('POST', '/admin/collections', { slug: 'fuzz', name: 'Fuzz', sortableFields: [{ name: 'price', type: 'number' }] });
  const dataIds = ['fz1', 'fz2', 'fz3'];
  for (const [index, dataId] of dataIds.entries()) await admin('PUT', `/admin/collections/fuzz/items/${dataId}`, { data: { title: `Item ${index}`, price: index } });
  const live = await admin('POST', '/admin/keys', { name: 'fuzz live', type: 'live', allowedDomains: ['example.com'] });
  const test = await admin('POST', '/admin/keys', { name: 'fuzz test', type: 'test' });
  world = { port, liveKey: String(live.key), testKey: String(test.key), adminToken: ADMIN_TOKEN, slug: 'fuzz', dataIds, keyId: String(live.keyId) };
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Whether the admin routes `target` to the dashboard (after the same path normalisation it
 * applies), read as the server reads it: encodeRequest sends the request line in latin1, so `/欮`
 * arrives as `/.`, which is `/`.
 */
const isDashboard = (target: string): boolean => {
  const onTheWire = Buffer.from(target, 'latin1').toString('latin1');
  try {
    return /^\/(dashboard)?(\/|$)/.test(normalizePath(onTheWire.trim().split('?')[0] ?? ''));
  } catch {
    return false;
  }
};

/** What is wrong with an answer, or null when it is one a client can handle. */
const problemOf = (request: FuzzRequest, response: RawSocketResponse, api: 'public' | 'admin'): string | null => {
  if (!(response.status >= 100 && response.status < 500)) return `status ${response.status}`;
  if (request.method === 'HEAD' || response.status === 204 || response.status === 304 || (response.status >= 300 && response.status < 400)) return null;
  const type = response.headers['content-type'] ?? '';
  if (type.startsWith('text/event-stream')) return response.status === 200 ? null : `event stream with status ${response.status}`;
  if (type.startsWith('text/html')) return api === 'admin' && isDashboard(request.target) ? null : 'an HTML answer outside the dashboard';
  if (response.status === 200 && request.target.startsWith('/metrics')) return null;
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    return `a non-JSON body (${type || 'no content-type'}): ${JSON.stringify(response.body.toString('utf8').slice(0, 120))}`;
  }
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (response.status >= 400 && (typeof error !== 'string' || typeof message !== 'string')) return `an error body without {error, message}: ${JSON.stringify(body).slice(0, 120)}`;
  return null;
};

const fuzz = (api: 'public' | 'admin') => async () => {
  const port = api === 'public' ? world.port : adminPort;
  const requests = api === 'public' ? publicRequests(world) : adminRequests(world);
  let sent = 0;
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      sent++;
      const response = await rawSocketHttp(port, encodeRequest(request, port), { from: request.from });
      const problem = problemOf(request, response, api);
      if (problem !== null) throw new Error(`${request.method} ${request.target.slice(0, 200)} → ${response.status}: ${problem}`);
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) after ${request.method} ${request.target.slice(0, 200)}`);
    }),
    { numRuns: 1_000_000, interruptAfterTimeLimit: TIME_LIMIT_MS, seed: process.env.PUBSTREAM_FUZZ_SEED === undefined ? undefined : Number(process.env.PUBSTREAM_FUZZ_SEED) },
  );
  console.log(`[fuzz] ${api} API: ${sent} generated requests in ${((Date.now() - started) / 1000).toFixed(0)} s, no 5xx, every body as expected`);
  expect(sent).toBeGreaterThan(200);
  expect(child.exitCode).toBeNull();
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${world.port}/public/data/fz1`, { headers: { 'X-API-Key': world.testKey } })).status).toBeLessThan(500);
};

describe('fuzzing both APIs over raw HTTP (bounded)', () => {
  it('the public API answers every generated request without a 5xx, always with JSON, and stays healthy', fuzz('public'), TIME_LIMIT_MS + 60_000);
  it('the admin API answers every generated request without a 5xx, with JSON (HTML on the dashboard), and stays healthy', fuzz('admin'), TIME_LIMIT_MS + 60_000);
});
