import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { NotFoundError } from './errors.js';
import { createReadMethods } from './readMethods.js';
import { defaultRetryPolicy } from './retryPolicy.js';

function recording(answer: (url: URL, body: unknown) => Response) {
  const requests: { method: string; url: URL; body: unknown; key: string | null }[] = [];
  const reads = createReadMethods({
    fetch: async (input, init) => {
      const url = new URL(input);
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      requests.push({ method: init?.method ?? 'GET', url, body, key: new Headers(init?.headers).get('X-API-Key') });
      return answer(url, body);
    },
    baseUrl: 'http://pubstream.invalid/prefix',
    apiKey: 'pk_test_abc',
    retry: { ...defaultRetryPolicy, maxAttempts: 1 },
    clock: systemClock,
  });
  return { reads, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('createReadMethods', () => {
  it('fetchData GETs the escaped id under the base path, with the key', async () => {
    const { reads, requests } = recording(() => json({ dataId: 'a/b', data: {} }));
    await reads.fetchData('a/b');
    expect(requests[0]).toMatchObject({ method: 'GET', key: 'pk_test_abc' });
    expect(requests[0]!.url.pathname).toBe('/prefix/public/data/a%2Fb');
  });

  it('fetchBatch sends 100 ids a request, one after the other, and merges in request order', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `id-${i}`);
    const { reads, requests } = recording((_url, body) => {
      const { dataIds } = body as { dataIds: string[] };
      return json({ data: dataIds.map((dataId) => ({ dataId, data: {} })), found: dataIds.length, notFound: [] });
    });
    const result = await reads.fetchBatch(ids, { fields: ['title'] });
    expect(requests.map((r) => (r.body as { dataIds: string[] }).dataIds.length)).toEqual([100, 50]);
    expect(requests[0]!.body).toMatchObject({ fields: ['title'] });
    expect(result.data.map((item) => item.dataId)).toEqual(ids);
  });

  it('fetchCollection sends only the options given', async () => {
    const { reads, requests } = recording(() => json({ data: [], total: 0, page: 2, limit: 5, totalPages: 0 }));
    await reads.fetchCollection('news', { page: 2, limit: 5 });
    expect(requests[0]!.url.pathname).toBe('/prefix/public/collections/news/data');
    expect(Object.fromEntries(requests[0]!.url.searchParams)).toEqual({ page: '2', limit: '5' });
  });

  it('throws the typed error of the answer', async () => {
    const { reads } = recording(() => json({ error: 'Not Found', message: 'Item not found: x' }, 404));
    await expect(reads.fetchData('x')).rejects.toBeInstanceOf(NotFoundError);
  });
});
