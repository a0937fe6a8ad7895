import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { NotFoundError, PositionExpiredError } from './errors.js';
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

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers });

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

  it('passes minPosition to every read and gives the X-Position of the answer as position (a split batch: the lowest)', async () => {
    let next = 7;
    const { reads, requests } = recording((url, body) => {
      const headers = { 'X-Position': String(next++) };
      if (url.pathname.endsWith('/batch')) {
        const { dataIds } = body as { dataIds: string[] };
        return json({ data: [], found: 0, notFound: dataIds }, 200, headers);
      }
      return json(url.pathname.includes('/collections/') ? { data: [], total: 0, page: 1, limit: 20, totalPages: 0 } : { dataId: 'a', data: {} }, 200, headers);
    });
    expect((await reads.fetchData('a', { minPosition: 5 })).position).toBe(7);
    expect((await reads.fetchCollection('news', { minPosition: 5 })).position).toBe(8);
    const ids = Array.from({ length: 150 }, (_, i) => `id-${i}`);
    expect((await reads.fetchBatch(ids, { minPosition: 5 })).position).toBe(9);
    expect(requests.map((r) => r.url.searchParams.get('minPosition'))).toEqual(['5', '5', '5', '5']);
  });

  it('changes pages through the feed with nextSince, yields each change once in order, and ends when caught up without follow', async () => {
    const feed = [1, 2, 3, 4, 5].map((position) => ({ position, dataId: `d${position}`, action: 'update', version: 0, data: {} }));
    const { reads, requests } = recording((url) => {
      const since = Number(url.searchParams.get('since'));
      const changes = feed.filter((c) => c.position > since).slice(0, 2);
      return json({ changes, nextSince: changes.at(-1)?.position ?? since, hasMore: feed.some((c) => c.position > (changes.at(-1)?.position ?? since)) });
    });
    const seen: number[] = [];
    for await (const change of reads.changes('news', { since: 1, limit: 2, follow: false })) seen.push(change.position);
    expect(seen).toEqual([2, 3, 4, 5]);
    expect(requests.map((r) => r.url.searchParams.get('since'))).toEqual(['1', '3']);
    expect(requests[0]!.url.pathname).toBe('/prefix/public/collections/news/changes');
  });

  it('changes keeps polling once caught up until the loop breaks, and a since past the history is PositionExpiredError', async () => {
    let calls = 0;
    const { reads } = recording(() => {
      calls++;
      return calls < 3 ? json({ changes: [], nextSince: 9, hasMore: false }) : json({ changes: [{ position: 10, dataId: 'x', action: 'delete', version: 2, data: {} }], nextSince: 10, hasMore: false });
    });
    for await (const change of reads.changes('news', { since: 9, pollIntervalMs: 1 })) {
      expect(change.position).toBe(10);
      break;
    }
    expect(calls).toBe(3);
    const expired = recording(() => json({ error: 'Gone', message: 'Position expired: re-read the collection' }, 410));
    await expect(expired.reads.changes('news', { since: 0 }).next()).rejects.toBeInstanceOf(PositionExpiredError);
  });
});
