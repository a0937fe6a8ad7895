import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from './testing/apiHarness.js';
import { rawRequest } from './testing/rawRequest.js';

// HTTP caching and compression of public reads over real HTTP (docs/public-api.md, "Caching and
// compression"). A real browser doing the same: tests/e2e/httpCaching.browser.e2e.test.ts.


describe('public reads: caching headers, 304 and compression', () => {
  let h: ApiHarness;
  let key: string;

  beforeAll(async () => {
    h = await startApiHarness({ config: { cache: { maxAgeSeconds: 5, staleWhileRevalidateSeconds: 30 }, compressionMinBytes: 1_024 } });
    await h.collection('docs');
    for (let i = 0; i < 40; i++) await h.item('docs', `doc-${i}`, { title: `Document ${i}`, body: 'lorem ipsum '.repeat(10) }, { updatedAt: '2026-03-04T05:06:07.890Z' });
    key = (await h.key({ type: 'live' })).raw;
  });
  afterAll(() => h.close());

  it('every read carries private Cache-Control, its validators and Vary for each header that changes it', async () => {
    for (const res of [
      await h.get('/public/data/doc-1', { 'X-API-Key': key }),
      await h.get('/public/collections/docs/data', { 'X-API-Key': key }),
      await h.post('/public/batch', { dataIds: ['doc-1'] }, { 'X-API-Key': key }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, max-age=5, stale-while-revalidate=30');
      expect(res.headers.get('etag')).toMatch(/^W\/"/);
      expect(res.headers.get('vary')?.split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Origin', 'Referer', 'X-API-Key']);
    }
    const item = await h.get('/public/data/doc-1', { 'X-API-Key': key });
    expect(item.headers.get('last-modified')).toBe('Wed, 04 Mar 2026 05:06:07 GMT');
  });

  it('a refusal varies on the access headers too, and is not cacheable by a shared cache', async () => {
    const res = await h.get('/public/data/doc-1', { 'X-API-Key': 'pk_live_unknown' });
    expect(res.status).toBe(401);
    expect(res.headers.get('vary')).toContain('X-API-Key');
    expect(res.headers.get('cache-control') ?? '').not.toContain('public');
  });

  it('If-Modified-Since: 304 with the same headers and no body while unchanged, 200 once the item changes', async () => {
    await h.item('docs', 'dated', { v: 1 }, { updatedAt: '2026-03-04T05:06:07.000Z' });
    const first = await h.get('/public/data/dated', { 'X-API-Key': key });
    const since = first.headers.get('last-modified') ?? '';
    const notModified = await h.get('/public/data/dated', { 'X-API-Key': key, 'If-Modified-Since': since });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    expect(notModified.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(notModified.headers.get('last-modified')).toBe(since);
    expect(notModified.headers.get('x-ratelimit-remaining')).not.toBeNull();
    await h.item('docs', 'dated', { v: 2 }, { updatedAt: '2026-03-04T05:06:08.000Z' });
    const changed = await h.get('/public/data/dated', { 'X-API-Key': key, 'If-Modified-Since': since });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ data: { v: 2 } });
  });

  it('batch: an ETag, 304 for If-None-Match while the answer is the same, 200 when an item changes', async () => {
    const body = { dataIds: ['doc-2', 'doc-3', 'nothing-here'], fields: ['title'] };
    const first = await h.post('/public/batch', body, { 'X-API-Key': key });
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"/);
    expect((await h.post('/public/batch', body, { 'X-API-Key': key })).headers.get('etag')).toBe(etag);
    const same = await h.post('/public/batch', body, { 'X-API-Key': key, 'If-None-Match': etag });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    const otherFields = await h.post('/public/batch', { ...body, fields: ['body'] }, { 'X-API-Key': key, 'If-None-Match': etag });
    expect(otherFields.status).toBe(200);
    await h.item('docs', 'doc-3', { title: 'Document 3, revised' });
    const changed = await h.post('/public/batch', body, { 'X-API-Key': key, 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('compresses JSON over the threshold with br or gzip as the client accepts, never below it', async () => {
    const url = `${h.url}/public/collections/docs/data?limit=40`;
    const plain = await rawRequest(url, { headers: { 'X-API-Key': key } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const text = plain.body.toString('utf8');
    expect(text.length).toBeGreaterThan(1_024);

    const br = await rawRequest(url, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(text);
    expect(br.body.length).toBeLessThan(text.length / 4);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);

    expect((await rawRequest(url, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'gzip;q=0.5, br' } })).headers['content-encoding']).toBe('br');
    // Equal q-values: the client's order decides (a browser's "gzip, deflate, br, zstd" gets gzip).
    const gzip = await rawRequest(url, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'gzip, deflate, br, zstd' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(text);
    // Served from the reply cache: the second answer is the same bytes.
    expect((await rawRequest(url, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'gzip' } })).body.equals(gzip.body)).toBe(true);

    const small = await rawRequest(`${h.url}/public/data/doc-1`, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'gzip, br' } });
    expect(small.body.length).toBeLessThan(1_024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toContain('Accept-Encoding');

    const batch = await rawRequest(`${h.url}/public/batch`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' },
      body: JSON.stringify({ dataIds: Array.from({ length: 40 }, (_, i) => `doc-${i}`) }),
    });
    expect(batch.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(batch.body).toString('utf8'))).toMatchObject({ found: 40 });
  });
});
