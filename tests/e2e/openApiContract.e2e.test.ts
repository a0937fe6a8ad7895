import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractRecorder, type Api, type ContractRecorder } from './support/contractRecorder.js';
import { createOpenApiValidator, type OpenApiValidator } from './support/openApiValidator.js';
import { startPubstream, type PubstreamUnderTest } from './support/pubstreamUnderTest.js';

// The contract of docs/testing.md, "Contract": a real `pubstream start`, both APIs judged by the
// /openapi.json they serve. Every answer of the request set below must be documented (status,
// content type, body schema, headers), and every (operation, status) the documents list must be
// produced by some request, but the two that this one healthy process cannot give: 503 (a backend
// down: faultsRedis, adminRedisDown) and 202 (the read model late: adminFaults, adminIdempotency).

const TOKEN = 'contract-admin-token-0123456789';
/** Failed authentications before an address is blocked: room for one 401 per admin route, then the 429s. */
const MAX_FAILURES = 30;
const MiB = 2 ** 20;
let server: PubstreamUnderTest;
let rec: ContractRecorder;
const documents = {} as Record<Api, Record<string, unknown>>;
const specs = {} as Record<Api, OpenApiValidator>;
const keys = { live: '', limited: '', test: '', keyId: '' };

const json = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const bearer = { Authorization: `Bearer ${TOKEN}` };
const adminJson = (body: unknown, extra: Record<string, string> = {}) => ({ headers: { ...bearer, 'Content-Type': 'application/json', ...extra }, body: JSON.stringify(body) });
const keyed = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'X-API-Key': key, ...extra } });

beforeAll(async () => {
  server = await startPubstream({ adminToken: TOKEN, env: { ADMIN_AUTH_MAX_FAILURES: String(MAX_FAILURES), STREAM_TTL_MS: '3000' } });
  for (const [api, port] of [['public', server.port], ['admin', server.adminPort]] as const) {
    documents[api] = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as Record<string, unknown>;
    specs[api] = createOpenApiValidator(documents[api], { caseSensitive: api === 'admin' });
  }
  rec = createContractRecorder({ public: server.port, admin: server.adminPort }, specs);
}, 120_000);

afterAll(() => server?.stop());

/** Reads a stream's events until it ends (its `reconnect`), deleting `deleteId` once the snapshot is in; each payload is checked against the document. */
const readStream = async (path: string, deleteId: string): Promise<string[]> => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { signal: AbortSignal.timeout(20_000) });
  rec.record('public', 'GET', path, response, '');
  const seen: string[] = [];
  const parser = createParser({
    onEvent: (message) => {
      seen.push(message.event ?? 'message');
      const problem = specs.public.checkEvent('/subscribe', message.event ?? 'message', JSON.parse(message.data));
      if (problem !== null) rec.problems.push(`GET /subscribe: ${problem}`);
    },
  });
  const decoder = new TextDecoder();
  let deleted = false;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (!deleted && seen.includes('update')) {
      deleted = true;
      await rec.send('admin', 'DELETE', `/admin/collections/books/items/${deleteId}`, { headers: bearer });
    }
  }
  return seen;
};

describe('the served OpenAPI documents against real answers', () => {
  it('public reads: every answer documented', async () => {
    // This test's own findings (each test reports what its requests found).
    const before = rec.problems.length;
    await rec.send('admin', 'PUT', '/admin/plan', adminJson({ plan: 'business' }));
    await rec.send('admin', 'POST', '/admin/collections', adminJson({ slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] }));
    for (const id of ['dune', 'emma', 'gone']) await rec.send('admin', 'PUT', `/admin/collections/books/items/${id}`, adminJson({ data: { title: id, year: 1965 } }));
    const live = JSON.parse((await rec.send('admin', 'POST', '/admin/keys', adminJson({ name: 'site', type: 'live', allowedDomains: ['example.com'] }))).text) as Record<string, string>;
    keys.live = live.key ?? '';
    keys.keyId = live.keyId ?? '';
    keys.limited = (JSON.parse((await rec.send('admin', 'POST', '/admin/keys', adminJson({ name: 'tight', type: 'test', rateLimit: 1 }))).text) as Record<string, string>).key ?? '';
    keys.test = (JSON.parse((await rec.send('admin', 'POST', '/admin/keys', adminJson({ name: 'test', type: 'test' }))).text) as Record<string, string>).key ?? '';

    const item = await rec.send('public', 'GET', '/public/data/dune', keyed(keys.live));
    await rec.send('public', 'GET', '/public/data/dune', keyed(keys.live, { 'If-None-Match': item.headers.get('etag') ?? '' }));
    await rec.send('public', 'HEAD', '/public/data/dune', keyed(keys.live));
    await rec.send('public', 'GET', '/public/data/_bad', keyed(keys.live));
    await rec.send('public', 'GET', '/public/data/nothing', keyed(keys.live));
    const page = await rec.send('public', 'GET', '/public/collections/books/data?sort=year&order=asc&limit=2', keyed(keys.live));
    await rec.send('public', 'GET', '/public/collections/books/data?sort=year&order=asc&limit=2', keyed(keys.live, { 'If-None-Match': page.headers.get('etag') ?? '' }));
    await rec.send('public', 'GET', '/public/collections/books/data?page=9', keyed(keys.live));
    await rec.send('public', 'GET', '/public/collections/books/data?limit=0', keyed(keys.live));
    await rec.send('public', 'GET', '/public/collections/nope/data', keyed(keys.live));
    await rec.send('public', 'POST', '/public/batch', { headers: { ...keyed(keys.live).headers, ...json({}).headers }, body: JSON.stringify({ dataIds: ['dune', 'emma', 'nothing'], fields: ['title'] }) });
    const batch = { headers: { ...keyed(keys.live).headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ dataIds: ['dune', 'emma'] }) };
    const tagged = await rec.send('public', 'POST', '/public/batch', batch);
    await rec.send('public', 'POST', '/public/batch', { ...batch, headers: { ...batch.headers, 'If-None-Match': tagged.headers.get('etag') ?? '' } });
    const since = page.headers.get('x-position') ?? '0';
    await rec.send('public', 'GET', '/public/collections/books/changes', keyed(keys.live));
    await rec.send('public', 'GET', `/public/collections/books/changes?since=${since}&limit=1&minPosition=${since}`, keyed(keys.live));
    await rec.send('public', 'GET', '/public/collections/books/changes?since=abc', keyed(keys.live));
    await rec.send('public', 'GET', '/public/collections/nope/changes', keyed(keys.live));
    await rec.send('public', 'POST', '/public/batch', { headers: { ...keyed(keys.live).headers, 'Content-Type': 'application/json' }, body: '{"dataIds":[]}' });
    await rec.send('public', 'POST', '/public/batch', { headers: { ...keyed(keys.live).headers, 'Content-Type': 'text/plain' }, body: 'dune' });
    await rec.send('public', 'POST', '/public/batch', { headers: { ...keyed(keys.live).headers, 'Content-Type': 'application/json' }, body: `{"dataIds":["${'a'.repeat(MiB)}"]}` });
    for (const [method, path] of [['GET', '/public/data/dune'], ['POST', '/public/batch'], ['GET', '/public/collections/books/data'], ['GET', '/public/collections/books/changes'], ['GET', '/subscribe?collections=books']] as const) {
      const body = method === 'POST' ? JSON.stringify({ dataIds: ['dune'] }) : undefined;
      const type: Record<string, string> = method === 'POST' ? { 'Content-Type': 'application/json' } : {};
      await rec.send('public', method, path, { headers: { ...type }, body });
      await rec.send('public', method, path.startsWith('/subscribe') ? `${path}&apiKey=${keys.live}` : path, { headers: { ...keyed(keys.live).headers, ...type, Origin: 'https://evil.test' }, body });
      const tight: { url: string; headers: Record<string, string> } = path.startsWith('/subscribe') ? { url: `${path}&apiKey=${keys.limited}`, headers: {} } : { url: path, headers: keyed(keys.limited).headers };
      await rec.send('public', method, tight.url, { headers: { ...tight.headers, ...type }, body });
      await rec.send('public', method, tight.url, { headers: { ...tight.headers, ...type }, body });
    }
    await rec.send('public', 'GET', `/subscribe?apiKey=${keys.test}`);
    await rec.send('public', 'GET', `/subscribe?apiKey=${keys.test}&collections=nope`);
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs', '/docs/redoc.standalone.js', '/no/such/route']) await rec.send('public', 'GET', path);
    await rec.send('public', 'DELETE', '/public/batch', keyed(keys.live));
    expect(rec.problems.slice(before)).toEqual([]);
  }, 60_000);

  it('admin API: every answer documented', async () => {
    // This test's own findings (each test reports what its requests found).
    const before = rec.problems.length;
    const a = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => rec.send('admin', method, path, init);
    const big = JSON.stringify({ name: 'x'.repeat(MiB + 10) });
    const writes: [string, string, unknown][] = [
      ['POST', '/admin/collections', { slug: 'films', name: 'Films' }],
      ['PATCH', '/admin/collections/films', { name: 'Movies' }],
      ['PUT', '/admin/collections/films/items/alien', { data: { title: 'Alien' } }],
      ['POST', '/admin/keys', { name: 'k', type: 'test' }],
      ['PATCH', `/admin/keys/${keys.keyId}`, { name: 'renamed' }],
      ['PUT', '/admin/plan', { plan: 'business', monthlyQuota: null }],
    ];
    for (const [method, path, body] of writes) {
      await a(method, path, adminJson(body));
      await a(method, path, adminJson({ unknownField: 1 }));
      await a(method, path, { headers: { ...bearer, 'Content-Type': 'application/json' }, body: big });
      await a(method, path, { headers: { ...bearer, 'Content-Type': 'text/plain' }, body: 'x' });
    }
    await a('PUT', '/admin/collections/films/items/alien', adminJson({ data: { title: 'Alien', year: 1979 } }));
    await a('PUT', '/admin/collections/films/items/dune', adminJson({ data: {} }));
    await a('POST', '/admin/collections', adminJson({ slug: 'films', name: 'Films' }));
    for (const path of ['/admin/collections', '/admin/collections/films', '/admin/collections/films/items/alien', '/admin/keys', `/admin/keys/${keys.keyId}`, '/admin/plan', '/admin/usage?granularity=hour']) await a('GET', path, { headers: bearer });
    for (const path of ['/admin/collections/nope', '/admin/collections/nope/items/alien', '/admin/keys/nope']) await a('GET', path, { headers: bearer });
    await a('GET', '/admin/collections/films/items/_bad', { headers: bearer });
    await a('PATCH', '/admin/collections/nope', adminJson({ name: 'Nope' }));
    await a('PATCH', '/admin/keys/nope', adminJson({ name: 'Nope' }));
    await a('PUT', '/admin/collections/nope/items/alien', adminJson({ data: {} }));
    await a('GET', '/admin/usage?granularity=week', { headers: bearer });
    const ndjson = { ...bearer, 'Content-Type': 'application/x-ndjson' };
    await a('POST', '/admin/collections/films/items:import', { headers: ndjson, body: '{"dataId":"heat","data":{"title":"Heat"}}\nnot json\n' });
    await a('POST', '/admin/collections/nope/items:import', { headers: ndjson, body: '{"dataId":"heat","data":{}}\n' });
    await a('POST', '/admin/collections/films/items:import', { headers: { ...ndjson, 'Content-Encoding': 'gzip' }, body: 'not gzip' });
    await a('POST', '/admin/collections/films/items:import', { headers: { ...bearer, 'Content-Type': 'application/json' }, body: '{}' });
    // An Idempotency-Key bound to one request, then sent with another: 422 on every write.
    await a('PUT', '/admin/collections/films/items/seven', adminJson({ data: { title: 'Se7en' } }, { 'Idempotency-Key': 'contract-once' }));
    const reused = { ...bearer, 'Idempotency-Key': 'contract-once' };
    for (const [method, path, body] of [...writes, ['DELETE', '/admin/collections/films/items/alien', undefined], ['DELETE', `/admin/keys/${keys.keyId}`, undefined], ['DELETE', '/admin/collections/films', undefined]] as const) {
      await a(method, path, body === undefined ? { headers: reused } : adminJson(body, reused));
    }
    await a('POST', '/admin/collections/films/items:import', { headers: { ...ndjson, 'Idempotency-Key': 'contract-once' }, body: '{"dataId":"x","data":{}}\n' });
    await a('DELETE', '/admin/collections/films/items/_bad', { headers: bearer });
    for (const path of ['/admin/collections/films/items/alien', `/admin/keys/${keys.keyId}`, '/admin/collections/films']) {
      await a('DELETE', path, { headers: bearer });
      await a('DELETE', path, { headers: bearer });
    }
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/redoc.standalone.js']) await a('GET', path);
    await a('GET', '/metrics', { headers: bearer });
    await a('GET', '/admin/nothing', { headers: bearer });
    await a('PUT', '/admin/keys', { headers: bearer });
    expect(rec.problems.slice(before)).toEqual([]);
  }, 60_000);

  it('a stream: connected, update, ready, delete and reconnect, each payload as documented', async () => {
    // This test's own findings (each test reports what its requests found).
    const before = rec.problems.length;
    const events = await readStream(`/subscribe?apiKey=${keys.test}&collections=books&dataIds=gone`, 'gone');
    expect(events[0]).toBe('connected');
    expect(new Set(events)).toEqual(new Set(['connected', 'update', 'ready', 'delete', 'reconnect']));
    expect(events.at(-1)).toBe('reconnect');
    expect(rec.problems.slice(before)).toEqual([]);
  }, 30_000);

  it('refusals of the admin token on every route: 401, then 429 once the address is blocked', async () => {
    // This test's own findings (each test reports what its requests found).
    const before = rec.problems.length;
    const routes = Object.entries(documents.admin.paths as Record<string, Record<string, { security: unknown[] }>>).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, operation]) => operation.security.length > 0).map(([method]) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x')] as const),
    );
    for (const [method, path] of routes) await rec.send('admin', method, path);
    for (let failures = routes.length; failures <= MAX_FAILURES; failures++) await rec.send('admin', 'GET', '/admin/keys', { headers: { Authorization: 'Bearer wrong' } });
    for (const [method, path] of routes) await rec.send('admin', method, path, { headers: bearer });
    expect(rec.problems.slice(before)).toEqual([]);
  }, 60_000);

  // 410 (a `since` older than the kept history) needs a history trimmed by time: the positions
  // suite produces it with an injected clock (libs/read-model positionsSuite, tests/e2e/positions*).
  it('every documented answer was produced (but 503, 202 and 410, see above)', () => {
    const missing = rec.documented(documents, (status) => status === '503' || status === '202' || status === '410').filter((answer) => !rec.produced.has(answer));
    expect(missing).toEqual([]);
  });
});
