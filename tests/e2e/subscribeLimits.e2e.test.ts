import { describe, expect, it } from 'vitest';
import { createRedisStreamSlots } from '@pubstream/access';
import type { RedisReadModelClient } from '@pubstream/read-model';
import type { ReceivedEvent, SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { isItem, ORIGIN, useSubscribeWorlds } from './support/subscribeWorlds.js';

/**
 * GET /subscribe at its limits, over real HTTP with a real SSE parser (docs/subscriptions.md):
 * large snapshots, reconnect hints, the process budget of unsent bytes, the per-address cap and the
 * CORS headers of refusals. Regression tests of issue 15 (findings 7, 9 and 11).
 */

const { world, connect } = useSubscribeWorlds({ connectTimeoutMs: 15_000 });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isPage = (slug: string) => (event: ReceivedEvent) => event.data?.collectionSlug === slug;

describe('GET /subscribe: snapshots of any size up to the maximum', () => {
  it('delivers a 3 MB snapshot (a page of 20 items of 100 KB, 10 more items) to a client that starts reading late, then its deltas', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('big');
    const text = (n: number) => `${n}`.padEnd(100_000, 'x');
    for (let n = 0; n < 20; n++) await w.putItem('big', `page-${n}`, { text: text(n) });
    const ids = Array.from({ length: 10 }, (_, n) => `solo-${n}`);
    for (const id of ids) await w.putItem('big', id, { text: text(99) });

    const client = await connect(w.subscribeUrl({ apiKey, collections: 'big', dataIds: ids.join(',') }));
    client.pause();
    await sleep(300);
    client.resume();
    const page = await client.waitFor(isPage('big'), 'the page of the snapshot');
    expect(page.data.data.data).toHaveLength(20);
    expect(page.data.data.total).toBe(30);
    for (const id of ids) expect(client.events.find(isItem(id))?.data.data.text).toHaveLength(100_000);
    expect(client.events.filter((e) => e.event === 'reconnect')).toEqual([]);

    // A page delta bigger than the bound (2 MB) is delivered too, and so is what follows it.
    await w.putItem('big', 'page-19', { text: text(1_000) });
    await client.waitFor((e) => isPage('big')(e) && e.data.data.data.some((item: ReceivedEvent['data']) => item.data.text.startsWith('1000')), 'the page delta');
    await w.putItem('big', 'solo-0', { text: 'small' });
    await client.waitFor((e) => isItem('solo-0')(e) && e.data.data.text === 'small', 'a delta after it');
    expect(client.isEnded()).toBe(false);
    expect(w.hub.stats().ended.slow_consumer).toBeUndefined();
  });
});

describe('GET /subscribe: reconnect hints', () => {
  it('starts every stream with a retry: line before connected, jittered per stream', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    const streams = await Promise.all(Array.from({ length: 20 }, () => connect(w.subscribeUrl({ apiKey, collections: 'c' }))));
    for (const stream of streams) await stream.waitFor(isPage('c'), 'snapshot');
    for (const stream of streams) {
      expect(stream.retries[0]?.afterEvents).toBe(0);
      expect(stream.retries[0]?.ms).toBeGreaterThanOrEqual(1_000);
      expect(stream.retries[0]?.ms).toBeLessThan(5_000);
    }
    expect(new Set(streams.map((stream) => stream.retries[0]?.ms)).size).toBeGreaterThan(10);
  });

  it('drain ends every stream at once, their waits (retryAfterMs and retry:) spread over the shutdown window', async () => {
    const windowMs = 4_000;
    const w = await world({ shutdownReconnectWindowMs: windowMs });
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    const streams: SseTestClient[] = [];
    for (let wave = 0; wave < 4; wave++) {
      streams.push(...(await Promise.all(Array.from({ length: 50 }, () => connect(w.subscribeUrl({ apiKey, collections: 'c' }))))));
    }
    for (const stream of streams) await stream.waitFor(isPage('c'), 'snapshot');

    await w.hub.drain();
    const waits: number[] = [];
    for (const stream of streams) {
      await stream.ended;
      const last = stream.events.at(-1);
      expect(last).toMatchObject({ event: 'reconnect', data: { reason: 'shutdown' } });
      expect(stream.retries.at(-1)?.ms).toBe(last?.data.retryAfterMs);
      waits.push(last?.data.retryAfterMs as number);
    }
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(windowMs);
    // Spread, not bunched: each second of the window gets about a quarter of the 200 streams.
    const perSecond = [0, 1, 2, 3].map((second) => waits.filter((ms) => Math.floor(ms / 1_000) === second).length);
    for (const count of perSecond) expect(count).toBeGreaterThanOrEqual(40);
  });
});

describe('GET /subscribe: memory of stalled readers', () => {
  it('cuts the streams holding the most when the process budget of unsent bytes is exceeded; a reader that keeps up stays', async () => {
    // Each stream's own bound is out of reach here: only the process budget can cut.
    const w = await world({ maxBufferedBytes: 256 * 1024 * 1024, hub: { unsentBudgetBytes: 512 * 1024, budgetCheckMs: 20 } });
    const { apiKey } = await w.createKey();
    await w.putCollection('feed');
    await w.putItem('feed', 'blob', { text: '' });
    const stalled = await Promise.all(Array.from({ length: 6 }, () => connect(w.subscribeUrl({ apiKey, dataIds: 'blob' }))));
    const healthy = await connect(w.subscribeUrl({ apiKey, dataIds: 'blob' }));
    for (const stream of [...stalled, healthy]) await stream.waitFor(isItem('blob'), 'snapshot');
    for (const stream of stalled) stream.pause();

    const text = 'z'.repeat(32 * 1024);
    let writes = 0;
    // Paced, so that the reader that keeps up does (it shares this process with the writer).
    while ((w.hub.stats().ended.slow_consumer ?? 0) < stalled.length) {
      expect(writes++).toBeLessThan(5_000); // loopback socket buffers hold a few MiB per stream at most
      await w.putItem('feed', 'blob', { text, writes });
      await sleep(5);
    }
    expect(w.hub.stats().streams).toBe(1);
    await healthy.waitFor((e) => isItem('blob')(e) && e.data.data.writes === writes - 1, 'the last write');
    expect(healthy.isEnded()).toBe(false);
    for (const stream of stalled) stream.resume();
    for (const stream of stalled) {
      await stream.ended;
      const last = stream.events.at(-1);
      // A cut stream that gets to read its end sees why, and how long to wait (or just a closed stream).
      if (last?.event === 'reconnect') expect(last.data).toMatchObject({ reason: 'slow_consumer' });
    }
  });
});

describe('GET /subscribe: caps', () => {
  it('refuses more than MAX_STREAMS_PER_ADDRESS streams from one address with 429 JSON before any stream starts', async () => {
    const w = await world({ maxStreamsPerAddress: 3 });
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    const open = await Promise.all(Array.from({ length: 3 }, () => connect(w.subscribeUrl({ apiKey, collections: 'c' }))));
    for (const stream of open) expect(stream.status).toBe(200);
    const refused = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(await refused.body())).toEqual({
      error: 'Too Many Requests',
      message: 'Too many concurrent streams from this address: at most 3 per server. Close a stream before opening another.',
    });
    open[0]?.close();
    while (w.admission.streamsFrom('127.0.0.1') > 2) await sleep(10);
    expect((await connect(w.subscribeUrl({ apiKey, collections: 'c' }))).status).toBe(200);
  });
});

describe('GET /subscribe: stream limits out of reach', () => {
  it('answers 503 JSON with Retry-After within the timeout when Redis (the per-key slots) does not answer, instead of hanging', async () => {
    const frozen = { sendCommand: () => new Promise(() => {}) } as unknown as RedisReadModelClient;
    const w = await world({ streamSlots: createRedisStreamSlots({ client: frozen, timeoutMs: 200 }) });
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    const refused = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(JSON.parse(await refused.body())).toEqual({ error: 'Service Unavailable', message: 'Stream limits are unavailable right now; try again' });
    expect(w.hub.stats()).toMatchObject({ streams: 0, connecting: 0 });
    expect(w.admission.streamsFrom('127.0.0.1')).toBe(0);
  });
});

describe('GET /subscribe: refusals carry the CORS headers of every public route', () => {
  const refusal = async (client: SseTestClient, status: number, allowOrigin: string | undefined): Promise<string> => {
    expect(client.status).toBe(status);
    expect(client.headers['content-type']).toMatch(/^application\/json/);
    expect(client.headers.vary).toMatch(/Origin/);
    expect(client.headers['access-control-allow-origin']).toBe(allowOrigin);
    return (JSON.parse(await client.body()) as { message: string }).message;
  };

  it('401 and a refused domain carry Vary: Origin; once the key allows the origin, 400, 404, 429 and 403 (plan) carry Access-Control-Allow-Origin', async () => {
    const w = await world({ maxStreamsPerKey: 1 });
    const { apiKey } = await w.createKey({ allowedDomains: ['app.example.com'] });
    await w.putCollection('c');
    const url = (params: Record<string, string>) => w.subscribeUrl({ apiKey, ...params });

    expect(await refusal(await connect(w.subscribeUrl({ collections: 'c' })), 401, undefined)).toBe('Invalid API key');
    expect(await refusal(await connect(url({ collections: 'c' }), { Origin: 'https://evil.example.org' }), 403, undefined)).toBe('Domain not allowed for this API key');
    expect(await refusal(await connect(url({})), 400, ORIGIN)).toMatch(/^Nothing to subscribe to/);
    expect(await refusal(await connect(url({ collections: 'nope' })), 404, ORIGIN)).toBe('Collection not found: nope');
    const first = await connect(url({ collections: 'c' }));
    expect(first.status).toBe(200);
    expect(await refusal(await connect(url({ collections: 'c' })), 429, ORIGIN)).toMatch(/^Too many concurrent streams for this API key/);
    await w.setPlan('pro');
    expect(await refusal(await connect(url({ collections: 'c' })), 403, ORIGIN)).toMatch(/reactive mode/);
  });
});
