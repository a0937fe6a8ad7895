import fc from 'fast-check';
import { normalizePath } from '@pubstream/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequests, encodeRequest, publicRequests, type FuzzRequest, type FuzzWorld } from './support/fuzzRequests.js';
import { createOpenApiValidator, type OpenApiValidator } from './support/openApiValidator.js';
import { startPubstream, type PubstreamUnderTest } from './support/pubstreamUnderTest.js';
import { rawSocketHttp, type RawSocketResponse } from './support/rawSocketHttp.js';

// The fuzz target of docs/security.md: thousands of generated requests (valid, mutated and junk:
// bad paths, encodings, compressed and deep bodies, wrong keys and tokens) against a real
// `pubstream start` process over raw HTTP. Every answer must be a non-5xx with a JSON body (HTML
// on the dashboard, an event stream on /subscribe), documented by the API's own /openapi.json
// (status, body and headers: docs/testing.md, "Contract"), and the process must stay up and healthy.

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789';
/** Per API; fast-check stops early when the time is up (and reports what it found so far). */
const TIME_LIMIT_MS = Number(process.env.PUBSTREAM_FUZZ_MS ?? 40_000);
let server: PubstreamUnderTest;
let world: FuzzWorld;
const specs: Partial<Record<'public' | 'admin', OpenApiValidator>> = {};

beforeAll(async () => {
  server = await startPubstream({ adminToken: ADMIN_TOKEN });
  const { admin, port } = server;
  await admin('PUT', '/admin/plan', { plan: 'business' });
  await admin('POST', '/admin/collections', { slug: 'fuzz', name: 'Fuzz', sortableFields: [{ name: 'price', type: 'number' }] });
  const dataIds = ['fz1', 'fz2', 'fz3'];
  for (const [index, dataId] of dataIds.entries()) await admin('PUT', `/admin/collections/fuzz/items/${dataId}`, { data: { title: `Item ${index}`, price: index } });
  const live = await admin('POST', '/admin/keys', { name: 'fuzz live', type: 'live', allowedDomains: ['example.com'] });
  const test = await admin('POST', '/admin/keys', { name: 'fuzz test', type: 'test' });
  world = { port, liveKey: String(live.key), testKey: String(test.key), adminToken: ADMIN_TOKEN, slug: 'fuzz', dataIds, keyId: String(live.keyId) };
  for (const [api, specPort] of [['public', port], ['admin', server.adminPort]] as const) {
    const document = (await (await fetch(`http://127.0.0.1:${specPort}/openapi.json`)).json()) as Record<string, unknown>;
    specs[api] = createOpenApiValidator(document, { caseSensitive: api === 'admin' });
  }
}, 120_000);

afterAll(() => server?.stop());

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

/** What the API's own OpenAPI document does not say of an answer (the dashboard's pages are not in it), or null. */
const undocumented = (request: FuzzRequest, response: RawSocketResponse, api: 'public' | 'admin'): string | null => {
  let path: string;
  try {
    // The admin routes the normalised path; the public router matches the path as sent.
    const target = request.target.trim().split('?')[0] ?? '';
    path = api === 'admin' ? normalizePath(target) : target;
  } catch {
    path = request.target;
  }
  if (api === 'admin' && isDashboard(request.target)) return null;
  const verdict = specs[api]?.check({ method: request.method, path, status: response.status, headers: response.headers, body: response.body.toString('utf8') });
  return verdict?.problem ? `undocumented: ${verdict.problem}` : null;
};

const fuzz = (api: 'public' | 'admin') => async () => {
  const port = api === 'public' ? world.port : server.adminPort;
  const requests = api === 'public' ? publicRequests(world) : adminRequests(world);
  let sent = 0;
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(requests, async (request) => {
      sent++;
      const response = await rawSocketHttp(port, encodeRequest(request, port), { from: request.from });
      const problem = problemOf(request, response, api) ?? undocumented(request, response, api);
      if (problem !== null) throw new Error(`${request.method} ${request.target.slice(0, 200)} → ${response.status}: ${problem}`);
      if (server.exitCode() !== null) throw new Error(`the server exited (${server.exitCode()}) after ${request.method} ${request.target.slice(0, 200)}`);
    }),
    { numRuns: 1_000_000, interruptAfterTimeLimit: TIME_LIMIT_MS, seed: process.env.PUBSTREAM_FUZZ_SEED === undefined ? undefined : Number(process.env.PUBSTREAM_FUZZ_SEED) },
  );
  console.log(`[fuzz] ${api} API: ${sent} generated requests in ${((Date.now() - started) / 1000).toFixed(0)} s, no 5xx, every body as expected and documented`);
  expect(sent).toBeGreaterThan(200);
  expect(server.exitCode()).toBeNull();
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${world.port}/public/data/fz1`, { headers: { 'X-API-Key': world.testKey } })).status).toBeLessThan(500);
};

describe('fuzzing both APIs over raw HTTP (bounded)', () => {
  it('the public API answers every generated request without a 5xx, always with JSON, and stays healthy', fuzz('public'), TIME_LIMIT_MS + 60_000);
  it('the admin API answers every generated request without a 5xx, with JSON (HTML on the dashboard), and stays healthy', fuzz('admin'), TIME_LIMIT_MS + 60_000);
});
