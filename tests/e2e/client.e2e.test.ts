// The client library against a real all-in-one server (HTTP, SQLite event store, in-process read
// models and change stream): every method, every error class the server can produce and retries
// on a real 429. Reactive mode: clientReactive.e2e.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  createClient,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PubstreamError,
  RateLimitedError,
  UnauthorizedError,
  type FetchLike,
} from '@pubstream/client';
import type { AllInOne as Server } from '../../apps/cli/src/allInOne.js';
import { errorOf, recordingFetch, slug, useClientE2eServer } from './support/clientE2eServer.js';

const e2e = useClientE2eServer();
const { admin, createKey } = e2e;
let server: Server;
let key: string;
beforeAll(() => {
  server = e2e.server;
  key = e2e.key;
});

describe('read methods', () => {
  it('fetchData returns the whole item', async () => {
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key });
    const item = await client.fetchData('article-007');
    expect(item).toMatchObject({ dataId: 'article-007', data: { title: 'Article 7', rank: 7 } });
    expect(typeof item.id).toBe('string');
    expect(typeof item.collectionId).toBe('string');
    expect(Date.parse(item.createdAt)).not.toBeNaN();
    expect(Date.parse(item.updatedAt)).not.toBeNaN();
  });

  it('fetchBatch splits 150 ids into two requests and merges data, found and notFound in order', async () => {
    const { calls, fetchFn } = recordingFetch();
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key, fetch: fetchFn });
    const wanted = Array.from({ length: 150 }, (_, i) => `article-${String(i).padStart(3, '0')}`);
    const result = await client.fetchBatch(wanted, { fields: ['title'] });
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    expect(result.found).toBe(120);
    expect(result.data.map((d) => d.dataId)).toEqual(wanted.slice(0, 120));
    expect(result.data[5]).toEqual({ dataId: 'article-005', data: { title: 'Article 5' } });
    expect(result.notFound).toEqual(wanted.slice(120));
  });

  it('fetchCollection pages, sorts and orders', async () => {
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key });
    const page = await client.fetchCollection(slug, { page: 2, limit: 10, sort: 'rank', order: 'asc' });
    expect(page).toMatchObject({ total: 120, page: 2, limit: 10, totalPages: 12 });
    expect(page.data.map((d) => d.data.rank)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const defaults = await client.fetchCollection(slug);
    expect(defaults).toMatchObject({ page: 1, limit: 20, total: 120 });
  });
});

describe('errors', () => {
  it('BadRequestError for an invalid dataId and a bad page size', async () => {
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key });
    const error = await errorOf(client.fetchData('not a valid id!'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, error: 'Bad Request', message: 'Invalid dataId format' });
    expect(await errorOf(client.fetchCollection(slug, { limit: 1000 }))).toBeInstanceOf(BadRequestError);
  });

  it('UnauthorizedError for an unknown key, and for a key once it is deleted — without retrying', async () => {
    const { calls, fetchFn } = recordingFetch();
    const unknown = createClient({ baseUrl: server.publicUrl, apiKey: 'pk_test_00000000000000000000000000000000', fetch: fetchFn });
    const error = await errorOf(unknown.fetchData('article-001'));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, error: 'Unauthorized', message: 'Invalid API key' });
    expect(calls).toHaveLength(1);

    const doomed = await createKey({ type: 'test' });
    const client = createClient({ baseUrl: server.publicUrl, apiKey: doomed.key });
    await expect(client.fetchData('article-001')).resolves.toMatchObject({ dataId: 'article-001' });
    await admin('DELETE', `/admin/keys/${doomed.keyId}`);
    expect(await errorOf(client.fetchData('article-001'))).toBeInstanceOf(UnauthorizedError);
  });

  it('ForbiddenError when a browser origin is outside a live key’s whitelist', async () => {
    const live = await createKey({ type: 'live', allowedDomains: ['www.example.com'] });
    const withOrigin = (origin: string): FetchLike => (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: origin } });
    const evil = createClient({ baseUrl: server.publicUrl, apiKey: live.key, fetch: withOrigin('https://evil.example.org') });
    const error = await errorOf(evil.fetchData('article-001'));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, error: 'Forbidden', message: 'Domain not allowed for this API key' });
    const good = createClient({ baseUrl: server.publicUrl, apiKey: live.key, fetch: withOrigin('https://www.example.com') });
    await expect(good.fetchData('article-001')).resolves.toMatchObject({ dataId: 'article-001' });
  });

  it('NotFoundError for a missing item and a missing collection', async () => {
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key });
    const error = await errorOf(client.fetchData('no-such-item'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, error: 'Not Found', message: 'Data not found' });
    expect(await errorOf(client.fetchCollection('no-such-collection'))).toBeInstanceOf(NotFoundError);
  });

  it('NetworkError when nothing listens, after the configured attempts', async () => {
    const { fetchFn } = recordingFetch();
    let attempts = 0;
    const counting: FetchLike = (input, init) => {
      attempts += 1;
      return fetchFn(input, init);
    };
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: key, fetch: counting, retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const error = await errorOf(client.fetchData('article-001'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0 });
    expect(attempts).toBe(3);
  });

  it('RateLimitedError with the reset time when retries are off', async () => {
    const limited = await createKey({ type: 'test', rateLimit: 2 });
    const client = createClient({ baseUrl: server.publicUrl, apiKey: limited.key, retry: { maxAttempts: 1 } });
    await client.fetchData('article-001');
    await client.fetchData('article-001');
    const error = await errorOf(client.fetchData('article-001'));
    expect(error).toBeInstanceOf(RateLimitedError);
    const rateLimited = error as RateLimitedError;
    expect(rateLimited).toMatchObject({ status: 429, error: 'Too Many Requests' });
    expect(rateLimited.message).toMatch(/^Rate limit exceeded\. Try again (in \d+ seconds|later)\.$/);
    expect(rateLimited.resetAt).toBeInstanceOf(Date);
    expect(rateLimited.resetAt!.getTime()).toBeGreaterThan(Date.now() - 1_000);
    expect(rateLimited.retryAfterMs).toBeGreaterThan(0);
  });
});

describe('retries', () => {
  it(
    'retries a real 429 after the wait the server asked for, then succeeds',
    async () => {
      const limited = await createKey({ type: 'test', rateLimit: 1 });
      const { calls, fetchFn } = recordingFetch();
      const client = createClient({ baseUrl: server.publicUrl, apiKey: limited.key, fetch: fetchFn, retry: { maxElapsedMs: 120_000 } });
      await client.fetchData('article-001');
      const item = await client.fetchData('article-002');
      expect(item.dataId).toBe('article-002');
      expect(calls.map((c) => c.status)).toEqual([200, 429, 200]);
      const refused = calls[1]!;
      const retryAfter = Number(refused.headers.get('retry-after'));
      const reset = Number(refused.headers.get('x-ratelimit-reset'));
      expect(retryAfter > 0 || reset > 0).toBe(true);
      const honoured = retryAfter > 0 ? refused.at + retryAfter * 1000 : reset * 1000;
      expect(calls[2]!.at).toBeGreaterThanOrEqual(honoured);
    },
    150_000,
  );

  it('aborts a retry wait with the AbortSignal', async () => {
    const limited = await createKey({ type: 'test', rateLimit: 1 });
    const client = createClient({ baseUrl: server.publicUrl, apiKey: limited.key, retry: { maxElapsedMs: 120_000 } });
    await client.fetchData('article-001');
    const controller = new AbortController();
    const pending = client.fetchData('article-001', { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const error = await errorOf(pending);
    expect(error).not.toBeInstanceOf(PubstreamError);
    expect((error as Error).name).toBe('AbortError');
  });
});
