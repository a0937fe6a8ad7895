// The client library against a real all-in-one server (HTTP, SQLite event store, in-process read
// models and change stream): every method, every error class the server can produce, retries on a
// real 429, and reactive mode across forced stream cycles and a server restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  createClient,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PubstreamError,
  RateLimitedError,
  UnauthorizedError,
  type CollectionPage,
  type ConnectedEvent,
  type FetchLike,
  type WatchedItem,
} from '@pubstream/client';
import type { AllInOne as Server } from '../../apps/cli/src/allInOne.js';
import { adminRequest, startClientServer } from './support/clientServer.js';

const streamTtlMs = 1_500;
const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-client-e2e-'));
const slug = 'articles';
let server: Server;
let publicPort: number;
let adminPort: number;

/** The embedded profile on loopback, with a short stream lifetime; the same ports + data dir restart it. */
async function start(ports = { publicPort: 0, adminPort: 0 }): Promise<Server> {
  return startClientServer(dataDir, {
    PORT: String(ports.publicPort),
    ADMIN_PORT: String(ports.adminPort),
    STREAM_TTL_MS: String(streamTtlMs),
    ADMIN_TOKEN: 'client-e2e-admin-token-0123456789',
  });
}

const admin = <T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> => adminRequest<T>(server, method, path, body);

const putItem = (dataId: string, data: Record<string, unknown>, collection = slug) =>
  admin('PUT', `/admin/collections/${collection}/items/${dataId}`, { data });

async function createKey(input: { type: 'live' | 'test'; allowedDomains?: string[]; rateLimit?: number }): Promise<{ key: string; keyId: string }> {
  const created = await admin<{ key: string; keyId: string }>('POST', '/admin/keys', {
    name: `client-e2e-${input.type}`,
    type: input.type,
    allowedDomains: input.allowedDomains ?? [],
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
  });
  return created;
}

/** Resolves once `predicate` holds, polling; fails with `what` after `ms`. */
async function eventually(what: string, predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A real fetch that records each response status and when the request was sent. */
function recordingFetch() {
  const calls: { at: number; status: number; headers: Headers }[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const at = Date.now();
    const response = await fetch(input, init);
    calls.push({ at, status: response.status, headers: response.headers });
    return response;
  };
  return { calls, fetchFn };
}

const errorOf = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => new Error('expected a failure'), (error: unknown) => error);

let key: string;

beforeAll(async () => {
  server = await start();
  publicPort = Number(new URL(server.publicUrl).port);
  adminPort = Number(new URL(server.adminUrl).port);
  await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
  await admin('POST', '/admin/collections', { slug, name: 'Articles', sortableFields: [{ name: 'rank', type: 'number' }] });
  for (let i = 0; i < 120; i += 1) await putItem(`article-${String(i).padStart(3, '0')}`, { title: `Article ${i}`, rank: i, body: 'x'.repeat(20) });
  key = (await createKey({ type: 'test' })).key;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
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

describe('reactive mode', () => {
  it(
    'keeps a watcher current across forced stream cycles and a server restart, seeing every final value',
    async () => {
      await putItem('live-item', { title: 'v0' });
      const connections: ConnectedEvent[] = [];
      const client = createClient({
        baseUrl: server.publicUrl,
        apiKey: key,
        reactive: true,
        retry: { baseDelayMs: 100, maxDelayMs: 500 },
        onStreamConnected: (event) => connections.push(event),
      });
      const seen: WatchedItem[] = [];
      const pages: CollectionPage[] = [];
      const stopItem = client.watchData('live-item', (item) => seen.push(item));
      const stopCollection = client.watchCollection(slug, (page) => pages.push(page));
      const latestTitle = () => seen.at(-1)?.data.title;

      await eventually('the snapshot', () => latestTitle() === 'v0' && pages.length > 0);
      expect(connections[0]?.ttlMs).toBeGreaterThan(0);

      // At least five forced cycles: write, see the value, then wait for the next connection.
      for (let cycle = 1; cycle <= 6; cycle += 1) {
        const before = connections.length;
        await putItem('live-item', { title: `v${cycle}` });
        await eventually(`v${cycle}`, () => latestTitle() === `v${cycle}`);
        await eventually(`cycle ${cycle}`, () => connections.length > before, streamTtlMs * 4);
      }
      expect(new Set(connections.map((c) => c.connectionId)).size).toBeGreaterThanOrEqual(6);
      expect(client.currentData('live-item')).toEqual({ dataId: 'live-item', data: { title: 'v6' } });

      // The collection watcher follows too: a new item changes the total.
      const total = client.currentCollection(slug)!.total;
      await putItem('live-item-2', { title: 'new', rank: 1000 });
      await eventually('the new total', () => client.currentCollection(slug)?.total === total + 1);

      // Restart on the same port and data directory; the watcher reconnects and catches up.
      const beforeRestart = connections.length;
      await server.stop();
      // The stop is quick now (streams end at once and close their sockets): let this process see
      // the old server's keep-alive sockets close before fetch would reuse one for the new server.
      await new Promise((resolve) => setTimeout(resolve, 50));
      server = await start({ publicPort, adminPort });
      await putItem('live-item', { title: 'after-restart' });
      await eventually('the value written after the restart', () => latestTitle() === 'after-restart', 30_000);
      await eventually('a new connection', () => connections.length > beforeRestart);

      // A deletion reaches the watcher as null.
      await admin('DELETE', `/admin/collections/${slug}/items/live-item`);
      await eventually('the deletion', () => seen.at(-1) === null);

      const expected = ['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'after-restart'];
      const titles = seen.map((item) => (item === null ? null : String(item.data.title)));
      for (const v of expected) expect(titles).toContain(v);
      // Never backwards: the values arrive in write order.
      const order = titles.filter((t): t is string => t !== null).map((t) => expected.indexOf(t));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      stopItem();
      stopCollection();
      client.close();
    },
    120_000,
  );
});

describe('reactive mode edges', () => {
  it('reports an item that does not exist as null, then its value once it is created', async () => {
    const client = createClient({ baseUrl: server.publicUrl, apiKey: key, reactive: true });
    const seen: WatchedItem[] = [];
    client.watchData('not-yet', (item) => seen.push(item));
    await eventually('null for the missing item', () => seen.length > 0);
    expect(seen).toEqual([null]);
    await putItem('not-yet', { title: 'born' });
    await eventually('the created item', () => seen.length > 1);
    expect(seen).toEqual([null, { dataId: 'not-yet', data: { title: 'born' } }]);
    client.close();
  });

  it('reports a revoked key as UnauthorizedError and stops reconnecting', async () => {
    const doomed = await createKey({ type: 'test' });
    const errors: PubstreamError[] = [];
    const connections: ConnectedEvent[] = [];
    let opened = 0;
    class CountingEventSource extends EventSource {
      constructor(url: string) {
        super(url);
        opened += 1;
      }
    }
    const client = createClient({
      baseUrl: server.publicUrl,
      apiKey: doomed.key,
      reactive: true,
      EventSource: CountingEventSource,
      onStreamError: (error) => errors.push(error),
      onStreamConnected: (event) => connections.push(event),
    });
    client.watchData('article-001', () => {});
    await eventually('a connection', () => connections.length === 1);
    await admin('DELETE', `/admin/keys/${doomed.keyId}`);
    await eventually('the UnauthorizedError', () => errors.some((e) => e instanceof UnauthorizedError), streamTtlMs * 4);
    const attempts = opened;
    await new Promise((resolve) => setTimeout(resolve, streamTtlMs * 2));
    expect(opened).toBe(attempts);
    client.close();
  });

  it('reports a plan without reactive mode as ForbiddenError', async () => {
    await admin('PUT', '/admin/plan', { plan: 'pro', monthlyQuota: null });
    try {
      const errors: PubstreamError[] = [];
      const client = createClient({ baseUrl: server.publicUrl, apiKey: key, reactive: true, onStreamError: (error) => errors.push(error) });
      client.watchCollection(slug, () => {});
      await eventually('the ForbiddenError', () => errors.length > 0);
      expect(errors[0]).toBeInstanceOf(ForbiddenError);
      client.close();
    } finally {
      await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
    }
  });
});
