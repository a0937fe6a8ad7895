import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from './testing/apiHarness.js';
import { expectError } from './testing/expectError.js';

// Black-box tests over real HTTP: one or more per row of the specification's Endpoints,
// Authentication and Errors sections, and per decision of docs/decisions.md, "Public interface".
// Limits and deployment switches: publicApiLimits.e2e.test.ts.

describe('public read API over HTTP', () => {
  let h: ApiHarness;
  let live: string;
  let test: string;
  const headers = () => ({ 'X-API-Key': live });

  beforeAll(async () => {
    h = await startApiHarness();
    await h.collection('products', [
      { name: 'price', type: 'number' },
      { name: 'title', type: 'string' },
    ]);
    await h.collection('empty');
    // Items that tests change live in their own collection, so the listings above stay exact.
    await h.collection('scratch');
    for (let i = 1; i <= 25; i++) {
      const day = String(i).padStart(2, '0');
      await h.item('products', `p-${day}`, { title: `Product ${day}`, price: (i * 7) % 10, secret: i }, { createdAt: `2026-01-${day}T00:00:00.000Z` });
    }
    await h.item('products', 'no-price', { title: 'Free' }, { createdAt: '2026-02-01T00:00:00.000Z' });
    live = (await h.key({ type: 'live', allowedDomains: ['example.com', '*.example.com'] })).raw;
    test = (await h.key({ type: 'test', allowedDomains: ['example.com'] })).raw;
  });
  afterAll(() => h.close());

  describe('GET /public/data/{dataId}', () => {
    it('200 with id, dataId, collectionId, data, createdAt, updatedAt', async () => {
      const res = await h.get('/public/data/p-03', headers());
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        id: 'id-p-03',
        dataId: 'p-03',
        collectionId: 'products',
        data: { title: 'Product 03', price: 1, secret: 3 },
        createdAt: '2026-01-03T00:00:00.000Z',
        updatedAt: '2026-01-03T00:00:00.000Z',
      });
    });
    it('400 Invalid dataId format for an invalid id', async () => {
      await expectError(await h.get('/public/data/-bad', headers()), 400, 'Bad Request', 'Invalid dataId format');
      await expectError(await h.get(`/public/data/${'a'.repeat(129)}`, headers()), 400, 'Bad Request', 'Invalid dataId format');
      await expectError(await h.get('/public/data/a%20b', headers()), 400, 'Bad Request', 'Invalid dataId format');
    });
    it('404 Data not found', async () => {
      await expectError(await h.get('/public/data/missing', headers()), 404, 'Not Found', 'Data not found');
    });
    it('a deleted item is 404', async () => {
      await h.item('scratch', 'short-lived', { a: 1 }, { version: 0 });
      expect((await h.get('/public/data/short-lived', headers())).status).toBe(200);
      await h.deleteItem('scratch', 'short-lived', 1);
      await expectError(await h.get('/public/data/short-lived', headers()), 404, 'Not Found', 'Data not found');
    });
    it('weak ETag from the version; If-None-Match gives 304 until the item changes', async () => {
      await h.item('scratch', 'etag-item', { v: 1 }, { version: 0 });
      const first = await h.get('/public/data/etag-item', headers());
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await h.get('/public/data/etag-item', { ...headers(), 'If-None-Match': etag ?? '' });
      expect(again.status).toBe(304);
      expect(again.headers.get('x-ratelimit-limit')).toBe('1000');
      await h.item('scratch', 'etag-item', { v: 2 }, { version: 1 });
      const changed = await h.get('/public/data/etag-item', { ...headers(), 'If-None-Match': etag ?? '' });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(((await changed.json()) as { data: unknown }).data).toEqual({ v: 2 });
    });
  });

  describe('POST /public/batch', () => {
    it('200 with found items in request order, found count and notFound', async () => {
      const res = await h.post('/public/batch', { dataIds: ['p-02', 'nope', 'p-01', 'gone'] }, headers());
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        data: [
          { dataId: 'p-02', data: { title: 'Product 02', price: 4, secret: 2 } },
          { dataId: 'p-01', data: { title: 'Product 01', price: 7, secret: 1 } },
        ],
        found: 2,
        notFound: ['nope', 'gone'],
      });
    });
    it('duplicates are answered once', async () => {
      const body = await (await h.post('/public/batch', { dataIds: ['p-01', 'x', 'p-01', 'x'] }, headers())).json();
      expect(body).toMatchObject({ found: 1, notFound: ['x'] });
      expect((body as { data: unknown[] }).data).toHaveLength(1);
    });
    it('fields keeps only those top-level keys of data', async () => {
      const body = await (await h.post('/public/batch', { dataIds: ['p-05', 'no-price'], fields: ['title', 'price', 'absent'] }, headers())).json();
      expect(body).toEqual({
        data: [
          { dataId: 'p-05', data: { title: 'Product 05', price: 5 } },
          { dataId: 'no-price', data: { title: 'Free' } },
        ],
        found: 2,
        notFound: [],
      });
    });
    it('100 ids are fine; 101 is 400', async () => {
      const ids = Array.from({ length: 101 }, (_, i) => `id-${i}`);
      const ok = await h.post('/public/batch', { dataIds: ids.slice(0, 100) }, headers());
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { notFound: string[] }).notFound).toHaveLength(100);
      await expectError(await h.post('/public/batch', { dataIds: ids }, headers()), 400, 'Bad Request', 'Too many dataIds: at most 100 per request (got 101)');
    });
    it('400 for a missing or empty dataIds, an invalid id, or bad fields', async () => {
      await expectError(await h.post('/public/batch', {}, headers()), 400, 'Bad Request', 'dataIds must be an array of 1 to 100 data identifiers');
      await expectError(await h.post('/public/batch', { dataIds: [] }, headers()), 400, 'Bad Request', 'dataIds must be an array of 1 to 100 data identifiers');
      await expectError(await h.post('/public/batch', { dataIds: ['ok', 'not ok'] }, headers()), 400, 'Bad Request', 'Invalid dataId format');
      await expectError(await h.post('/public/batch', { dataIds: ['ok', 7] }, headers()), 400, 'Bad Request', 'Invalid dataId format');
      await expectError(await h.post('/public/batch', { dataIds: ['ok'], fields: 'title' }, headers()), 400, 'Bad Request', 'fields must be an array of field names (strings)');
      await expectError(await h.post('/public/batch', [1, 2], headers()), 400, 'Bad Request', 'Request body must be a JSON object with a dataIds array');
    });
    it('bad JSON is 400, a non-JSON content type 415, a body over 1 MiB 413', async () => {
      await expectError(await h.post('/public/batch', '{"dataIds": [', headers()), 400, 'Bad Request', 'Request body is not valid JSON');
      const text = await fetch(`${h.url}/public/batch`, { method: 'POST', headers: { ...headers(), 'Content-Type': 'text/plain' }, body: '{}' });
      await expectError(text, 415, 'Unsupported Media Type', 'Content-Type must be application/json');
      const big = JSON.stringify({ dataIds: ['a'], pad: 'x'.repeat(1024 * 1024) });
      await expectError(await h.post('/public/batch', big, headers()), 413, 'Payload Too Large', 'Request body is larger than 1 MiB');
    });
  });

  describe('GET /public/collections/{slug}/data', () => {
    type Page = { data: { dataId: string; data: Record<string, unknown> }[]; total: number; page: number; limit: number; totalPages: number };
    const page = async (query: string): Promise<Page> => {
      const res = await h.get(`/public/collections/products/data${query}`, headers());
      expect(res.status).toBe(200);
      return (await res.json()) as Page;
    };
    it('defaults: page 1, limit 20, createdAt desc; items carry only dataId and data', async () => {
      const body = await page('');
      expect(body).toMatchObject({ total: 26, page: 1, limit: 20, totalPages: 2 });
      expect(body.data).toHaveLength(20);
      expect(body.data[0]).toEqual({ dataId: 'no-price', data: { title: 'Free' } });
      expect(body.data[1]?.dataId).toBe('p-25');
      expect(Object.keys(body.data[1] ?? {})).toEqual(['dataId', 'data']);
    });
    it('page and limit', async () => {
      const body = await page('?page=2&limit=10&order=asc');
      expect(body).toMatchObject({ total: 26, page: 2, limit: 10, totalPages: 3 });
      expect(body.data.map((item) => item.dataId)).toEqual(['p-11', 'p-12', 'p-13', 'p-14', 'p-15', 'p-16', 'p-17', 'p-18', 'p-19', 'p-20']);
    });
    it('sort by a declared field; ties by dataId; items missing the field come last', async () => {
      const body = await page('?sort=price&order=asc&limit=100');
      const prices = body.data.map((item) => item.data.price);
      expect(prices.at(-1)).toBeUndefined();
      const withPrice = body.data.slice(0, -1);
      for (let i = 1; i < withPrice.length; i++) {
        const a = withPrice[i - 1]!;
        const b = withPrice[i]!;
        const pa = a.data.price as number;
        const pb = b.data.price as number;
        expect(pa < pb || (pa === pb && a.dataId < b.dataId)).toBe(true);
      }
      const desc = await page('?sort=price&order=desc&limit=100');
      expect(desc.data.at(-1)?.dataId).toBe('no-price');
      expect(desc.data[0]?.data.price).toBe(9);
    });
    it('sort by dataId and updatedAt', async () => {
      expect((await page('?sort=dataId&order=asc&limit=2')).data.map((i) => i.dataId)).toEqual(['no-price', 'p-01']);
      expect((await page('?sort=updatedAt&limit=1')).total).toBeGreaterThan(0);
    });
    it('a page past the last is 200 with empty data and the true total and totalPages', async () => {
      expect(await page('?page=99&limit=10')).toMatchObject({ data: [], page: 99, limit: 10 });
      const past = await page('?page=99&limit=10');
      expect(past.totalPages).toBe(Math.ceil(past.total / 10));
    });
    it('an empty collection: total 0, totalPages 0', async () => {
      const res = await h.get('/public/collections/empty/data', headers());
      expect(await res.json()).toEqual({ data: [], total: 0, page: 1, limit: 20, totalPages: 0 });
    });
    it('400 naming the allowed values for bad page, limit, order and sort', async () => {
      const bad = (query: string) => h.get(`/public/collections/products/data${query}`, headers());
      await expectError(await bad('?page=0'), 400, 'Bad Request', 'Invalid page: must be an integer of at least 1');
      await expectError(await bad('?page=1.5'), 400, 'Bad Request', 'Invalid page: must be an integer of at least 1');
      await expectError(await bad('?page=abc'), 400, 'Bad Request', 'Invalid page: must be an integer of at least 1');
      await expectError(await bad('?limit=0'), 400, 'Bad Request', 'Invalid limit: must be an integer from 1 to 100');
      await expectError(await bad('?limit=101'), 400, 'Bad Request', 'Invalid limit: must be an integer from 1 to 100');
      await expectError(await bad('?order=up'), 400, 'Bad Request', 'Invalid order: must be one of asc, desc');
      await expectError(await bad('?sort=secret'), 400, 'Bad Request', 'Invalid sort: must be one of createdAt, updatedAt, dataId, price, title');
    });
    it('404 for an unknown collection', async () => {
      await expectError(await h.get('/public/collections/nope/data', headers()), 404, 'Not Found', 'Collection not found: nope');
      await expectError(await h.get('/public/collections/NOT_A_SLUG/data', headers()), 404, 'Not Found', 'Collection not found: NOT_A_SLUG');
    });
    it('ETag changes when an item on the page changes; 304 otherwise', async () => {
      const first = await h.get('/public/collections/products/data?limit=5', headers());
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\//);
      expect((await h.get('/public/collections/products/data?limit=5', { ...headers(), 'If-None-Match': etag })).status).toBe(304);
      await h.item('products', 'no-price', { title: 'Free!' }, { createdAt: '2026-02-01T00:00:00.000Z' });
      const after = await h.get('/public/collections/products/data?limit=5', { ...headers(), 'If-None-Match': etag });
      expect(after.status).toBe(200);
    });
  });

  describe('Authentication', () => {
    it('401 Invalid API key: missing, malformed, unknown', async () => {
      await expectError(await h.get('/public/data/p-01'), 401, 'Unauthorized', 'Invalid API key');
      await expectError(await h.get('/public/data/p-01', { 'X-API-Key': 'pk_live_nope' }), 401, 'Unauthorized', 'Invalid API key');
      await expectError(await h.get('/public/data/p-01', { 'X-API-Key': `pk_live_${'a'.repeat(32)}` }), 401, 'Unauthorized', 'Invalid API key');
      await expectError(await h.post('/public/batch', { dataIds: ['p-01'] }), 401, 'Unauthorized', 'Invalid API key');
      await expectError(await h.get('/public/collections/products/data'), 401, 'Unauthorized', 'Invalid API key');
    });
    it('a deleted key is rejected with 401 on the very next request', async () => {
      const { raw, record } = await h.key();
      expect((await h.get('/public/data/p-01', { 'X-API-Key': raw })).status).toBe(200);
      await h.deleteKey(record);
      await expectError(await h.get('/public/data/p-01', { 'X-API-Key': raw }), 401, 'Unauthorized', 'Invalid API key');
    });
    it('keys are accepted from servers (no Origin, no Referer), both types', async () => {
      expect((await h.get('/public/data/p-01', { 'X-API-Key': live })).status).toBe(200);
      expect((await h.get('/public/data/p-01', { 'X-API-Key': test })).status).toBe(200);
    });
    it('403 Domain not allowed for this API key outside the whitelist', async () => {
      for (const origin of ['https://evilexample.com', 'https://evil.com', 'null', 'http://localhost:3000']) {
        await expectError(await h.get('/public/data/p-01', { 'X-API-Key': live, Origin: origin }), 403, 'Forbidden', 'Domain not allowed for this API key');
      }
      await expectError(await h.get('/public/data/p-01', { 'X-API-Key': live, Referer: 'https://evil.com/x' }), 403, 'Forbidden', 'Domain not allowed for this API key');
    });
    it('whitelisted exact and wildcard hosts, any case and port; Referer used when there is no Origin', async () => {
      for (const origin of ['https://example.com', 'https://WWW.Example.com:8443', 'https://a.b.example.com']) {
        expect((await h.get('/public/data/p-01', { 'X-API-Key': live, Origin: origin })).status).toBe(200);
      }
      expect((await h.get('/public/data/p-01', { 'X-API-Key': live, Referer: 'https://shop.example.com/page' })).status).toBe(200);
    });
    it('test keys also work from localhost, 127.0.0.1 and *.local', async () => {
      for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://dev.local']) {
        expect((await h.get('/public/data/p-01', { 'X-API-Key': test, Origin: origin })).status).toBe(200);
      }
    });
  });

  describe('CORS', () => {
    it('OPTIONS preflight is 204 without a key, allowing GET, POST, X-API-Key and Content-Type', async () => {
      const res = await fetch(`${h.url}/public/batch`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key, content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('X-API-Key, Content-Type');
      expect(res.headers.get('access-control-allow-origin')).toBe('https://example.com');
    });
    it('Access-Control-Allow-Origin only for an origin the key allows; always Vary: Origin and the exposed headers', async () => {
      const ok = await h.get('/public/data/p-01', { 'X-API-Key': live, Origin: 'https://app.example.com' });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(ok.headers.get('vary')).toMatch(/Origin/);
      expect(ok.headers.get('access-control-expose-headers')).toBe('X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Position');
      const refused = await h.get('/public/data/p-01', { 'X-API-Key': live, Origin: 'https://evil.com' });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('vary')).toMatch(/Origin/);
      const server = await h.get('/public/data/p-01', { 'X-API-Key': live });
      expect(server.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('Errors common to every route', () => {
    it('unknown routes are 404 JSON', async () => {
      await expectError(await h.get('/nope'), 404, 'Not Found', 'No route for GET /nope');
      await expectError(await h.get('/public/items'), 404, 'Not Found', 'No route for GET /public/items');
    });
    it('wrong methods are 405 with Allow', async () => {
      const res = await fetch(`${h.url}/public/batch`, { method: 'GET', headers: headers() });
      expect(res.headers.get('allow')).toMatch(/POST/);
      await expectError(res, 405, 'Method Not Allowed', /^Method GET not allowed/);
      const del = await fetch(`${h.url}/public/data/p-01`, { method: 'DELETE', headers: headers() });
      await expectError(del, 405, 'Method Not Allowed', /^Method DELETE not allowed/);
    });
  });

  describe('operations routes', () => {
    it('/healthz, /readyz, /metrics and /openapi.json', async () => {
      expect(await (await h.get('/healthz')).json()).toEqual({ status: 'ok' });
      expect(await (await h.get('/readyz')).json()).toEqual({ status: 'ready', checks: { readModel: 'ok', caughtUp: 'ok', changeStream: 'ok' } });
      const metrics = await (await h.get('/metrics')).text();
      expect(metrics).toMatch(/http_requests_total\{.*route="\/public\/data\/:dataId"/);
      const doc = (await (await h.get('/openapi.json')).json()) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/public/data/{dataId}', '/public/batch', '/public/collections/{slug}/data']));
    });
  });

  describe('usage', () => {
    it('each keyed request counts for its key (count and last used)', async () => {
      const { raw, record } = await h.key();
      for (let i = 0; i < 3; i++) await h.get('/public/data/p-01', { 'X-API-Key': raw });
      await h.get('/public/data/missing', { 'X-API-Key': raw });
      await h.api.usage.flush();
      const [usage] = await h.stores.usage.getUsage([record.keyId]);
      expect(usage).toMatchObject({ keyId: record.keyId, requestCount: 4 });
      expect(usage?.lastUsedAt).not.toBeNull();
    });
  });
});
