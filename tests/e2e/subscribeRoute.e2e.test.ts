import { describe, expect, it } from 'vitest';
import type { SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { expectConsecutiveVersionsDuringWriteBurst, isItem, ORIGIN, tick, useSubscribeWorlds } from './support/subscribeWorlds.js';

/**
 * GET /subscribe over real HTTP with a real SSE parser, mounted in a minimal Koa app over the real
 * memory read model and in-process change stream (tests/e2e/subscribe.e2e.test.ts runs the whole
 * all-in-one process).
 */

const { world, connect } = useSubscribeWorlds();

describe('GET /subscribe: the stream', () => {
  it('sends connected, the snapshot, then deltas, heartbeats and CORS headers for the key domain', async () => {
    const w = await world({ heartbeatMs: 30 });
    const { apiKey, keyId } = await w.createKey({ allowedDomains: ['app.example.com'] });
    await w.putCollection('posts');
    await w.putCollection('pages');
    await w.putItem('posts', 'first', { title: 'First' });
    await w.putItem('posts', 'second', { title: 'Second' });
    await w.putItem('pages', 'hero', { text: 'v0' });
    await w.putItem('pages', 'hero', { text: 'v1' });

    const client = await connect(w.subscribeUrl({ apiKey, collections: 'posts', dataIds: 'hero,not-yet' }));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['cache-control']).toContain('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['connection']).toBe('keep-alive');
    expect(client.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(client.headers['vary']).toContain('Origin');

    await client.waitFor((e) => e.data?.collectionSlug === 'posts', 'collection snapshot');
    const [connected, hero, posts] = client.events;
    expect(connected?.event).toBe('connected');
    expect(typeof connected?.data.connectionId).toBe('string');
    expect(connected?.data.ttlMs).toBeGreaterThanOrEqual(270_000);
    expect(connected?.data.ttlMs).toBeLessThanOrEqual(330_000);
    expect(hero).toEqual({ event: 'update', data: { dataId: 'hero', data: { text: 'v1' }, action: 'update', version: 1 } });
    expect(posts).toEqual({
      event: 'update',
      data: {
        collectionSlug: 'posts',
        data: { data: [{ dataId: 'second', data: { title: 'Second' } }, { dataId: 'first', data: { title: 'First' } }], total: 2, page: 1, limit: 20, totalPages: 1 },
        action: 'update',
      },
    });
    // Then ready, with the position of the snapshot as its id; snapshot frames carry no id.
    await client.waitFor((e) => e.event === 'ready', 'ready');
    expect(client.events).toHaveLength(4);
    expect(client.ids.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(client.events[3]?.data).toEqual({ position: Number(client.ids[3]) });

    // Deltas: the item, an unknown item appearing, the collection recomputed.
    await w.putItem('pages', 'hero', { text: 'v2' });
    await client.waitFor((e) => isItem('hero')(e) && e.data.version === 2, 'hero v2');
    await w.putItem('posts', 'not-yet', { title: 'Now' });
    await client.waitFor(isItem('not-yet'), 'not-yet created');
    await client.waitFor((e) => e.data?.collectionSlug === 'posts' && e.data.data.total === 3, 'posts page with 3 items');
    const page = client.events.filter((e) => e.data?.collectionSlug === 'posts').at(-1);
    expect(page?.data.data.data[0]).toEqual({ dataId: 'not-yet', data: { title: 'Now' } });
    // Heartbeat comments keep the connection warm.
    await client.waitFor(() => client.comments.includes('ping'), 'heartbeat');
    expect(w.usage.get(keyId)).toBe(1);
    expect(w.hub.stats().streams).toBe(1);
  });

  it('sends delete for a deleted item and an empty page for a deleted collection', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('news');
    await w.putItem('news', 'story', { n: 1 });
    const client = await connect(w.subscribeUrl({ apiKey, collections: 'news', dataIds: 'story' }));
    await client.waitFor((e) => e.data?.collectionSlug === 'news', 'snapshot');

    await w.deleteItem('news', 'story');
    const deleted = await client.waitFor((e) => e.event === 'delete', 'delete');
    expect(deleted.data).toEqual({ dataId: 'story', data: {}, action: 'delete', version: 1 });
    await client.waitFor((e) => e.data?.collectionSlug === 'news' && e.data.data.total === 0, 'page without the story');

    await w.putItem('news', 'other', { n: 2 });
    const withOther = await client.waitFor((e) => e.data?.collectionSlug === 'news' && e.data.data.data[0]?.dataId === 'other', 'page with other');
    await w.deleteCollection('news');
    const empty = await client.waitFor(
      (e) => e.data?.collectionSlug === 'news' && client.events.indexOf(e) > client.events.indexOf(withOther),
      'page after the collection was deleted',
    );
    expect(empty.data).toEqual({ collectionSlug: 'news', data: { data: [], total: 0, page: 1, limit: 20, totalPages: 0 }, action: 'update' });
  });

  it('ends the stream with key_revoked when the key is deleted, and the key is refused afterwards', async () => {
    const w = await world();
    const { apiKey, keyId } = await w.createKey();
    const other = await w.createKey();
    await w.putCollection('c');
    const client = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    const bystander = await connect(w.subscribeUrl({ apiKey: other.apiKey, collections: 'c' }));
    await client.waitFor((e) => e.data?.collectionSlug === 'c', 'snapshot');
    await bystander.waitFor((e) => e.data?.collectionSlug === 'c', 'snapshot');

    await w.deleteKey(keyId);
    await client.ended;
    expect(client.events.at(-1)).toEqual({ event: 'reconnect', data: { reason: 'key_revoked' } });
    expect(bystander.isEnded()).toBe(false);
    expect(w.hub.streamsForKey(keyId)).toBe(0);

    const again = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    expect(again.status).toBe(401);
    expect(JSON.parse(await again.body())).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
  });

  it('cycles after ttlMs with reconnect {reason: "cycle"}; every cycle starts with a snapshot and is metered once', async () => {
    const w = await world({ streamTtlMs: 200, ttlJitter: 0.1 });
    const { apiKey, keyId } = await w.createKey();
    await w.putCollection('c');
    await w.putItem('c', 'x', { n: 0 });
    for (let cycle = 1; cycle <= 3; cycle++) {
      await w.putItem('c', 'x', { n: cycle });
      const client = await connect(w.subscribeUrl({ apiKey, dataIds: 'x' }));
      const connected = await client.waitFor((e) => e.event === 'connected');
      expect(connected.data.ttlMs).toBeGreaterThanOrEqual(180);
      expect(connected.data.ttlMs).toBeLessThanOrEqual(220);
      await client.ended;
      expect(client.events.map((e) => e.event)).toEqual(['connected', 'update', 'ready', 'reconnect']);
      expect(client.events[1]?.data.data).toEqual({ n: cycle });
      expect(client.events[3]?.data).toEqual({ reason: 'cycle' });
      expect(w.usage.get(keyId)).toBe(cycle);
    }
    expect(w.hub.stats().streams).toBe(0);
  });

  it('drain() ends every stream with shutdown; a new one gets the same hint, not a 503 (an EventSource gives up on a 503), and its connection closes', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    const client = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    await client.waitFor((e) => e.data?.collectionSlug === 'c', 'snapshot');
    await w.hub.drain();
    await client.ended;
    // The shutdown window of this world is 0: reconnect at once.
    expect(client.events.at(-1)).toEqual({ event: 'reconnect', data: { reason: 'shutdown', retryAfterMs: 0 } });
    const late = await connect(w.subscribeUrl({ apiKey, collections: 'c' }));
    await late.ended;
    expect({ status: late.status, type: late.headers['content-type'], connection: late.headers.connection }).toEqual({ status: 200, type: expect.stringMatching(/^text\/event-stream/), connection: 'close' });
    expect({ events: late.events, retries: late.retries }).toEqual({ events: [{ event: 'reconnect', data: { reason: 'shutdown', retryAfterMs: 0 } }], retries: [{ ms: 0, afterEvents: 0 }] });
  });

  it('re-syncs every stream from the read models after a change-stream gap', async () => {
    const w = await world();
    const { apiKey } = await w.createKey();
    await w.putCollection('c');
    await w.putItem('c', 'kept', { n: 1 });
    await w.putItem('c', 'lost', { n: 1 });
    const client = await connect(w.subscribeUrl({ apiKey, collections: 'c', dataIds: 'kept,lost' }));
    await client.waitFor((e) => e.data?.collectionSlug === 'c', 'snapshot');
    const before = client.events.length;

    await w.putItem('c', 'lost', { n: 2 }, { publish: false });
    w.triggerGap('test: messages lost');
    const resynced = await client.waitFor((e) => isItem('lost')(e) && e.data.version === 1, 'lost v1 after the gap');
    expect(resynced.data.data).toEqual({ n: 2 });
    await client.waitFor((e) => e.data?.collectionSlug === 'c' && client.events.indexOf(e) >= before, 'page after the gap');
    // Only what changed is sent again: nothing for `kept`.
    expect(client.events.slice(before).filter(isItem('kept'))).toHaveLength(0);
  });
});

describe('GET /subscribe: refusals are JSON before any stream starts', () => {
  const expectJsonError = async (client: SseTestClient, status: number, error: string, message: string | RegExp): Promise<void> => {
    expect(client.status).toBe(status);
    expect(client.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(await client.body());
    expect(body.error).toBe(error);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };

  it('answers 401, 403, 400, 404 and 429 with {error, message}', async () => {
    const w = await world({ maxStreamsPerKey: 2 });
    const { apiKey } = await w.createKey({ allowedDomains: ['app.example.com'] });
    await w.putCollection('posts');
    const url = (params: Record<string, string | undefined>) => w.subscribeUrl({ apiKey, ...params });

    await expectJsonError(await connect(w.subscribeUrl({ collections: 'posts' })), 401, 'Unauthorized', 'Invalid API key');
    await expectJsonError(await connect(w.subscribeUrl({ apiKey: 'pk_live_' + 'x'.repeat(32), collections: 'posts' })), 401, 'Unauthorized', 'Invalid API key');
    await expectJsonError(await connect(url({ collections: 'posts' }), { Origin: 'https://evil.example.org' }), 403, 'Forbidden', 'Domain not allowed for this API key');
    await expectJsonError(await connect(url({})), 400, 'Bad Request', /Nothing to subscribe to/);
    const slugs = Array.from({ length: 26 }, (_, i) => `c${i}`).join(',');
    await expectJsonError(await connect(url({ collections: slugs })), 400, 'Bad Request', /Too many collections: at most 25/);
    const ids = Array.from({ length: 101 }, (_, i) => `id${i}`).join(',');
    await expectJsonError(await connect(url({ dataIds: ids })), 400, 'Bad Request', /Too many dataIds: at most 100/);
    await expectJsonError(await connect(url({ dataIds: 'ok,-bad' })), 400, 'Bad Request', /^Invalid dataId format/);
    await expectJsonError(await connect(url({ collections: 'Not A Slug' })), 400, 'Bad Request', /^Invalid collection slug/);
    await expectJsonError(await connect(url({ collections: 'posts,nope' })), 404, 'Not Found', 'Collection not found: nope');

    // 25 collections and 100 dataIds are fine (unknown dataIds are allowed).
    const many = await connect(url({ dataIds: Array.from({ length: 100 }, (_, i) => `id${i}`).join(',') }));
    expect(many.status).toBe(200);
    const second = await connect(url({ collections: 'posts' }));
    expect(second.status).toBe(200);
    await expectJsonError(await connect(url({ collections: 'posts' })), 429, 'Too Many Requests', /Too many concurrent streams for this API key/);
    expect(w.hub.stats().streams).toBe(2);
    expect(w.hub.stats().connecting).toBe(0);
    // HEAD runs the checks but opens no stream.
    const head = await fetch(url({ collections: 'posts' }), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(w.hub.stats().streams).toBe(2);

    await w.setPlan('pro');
    await expectJsonError(
      await connect(url({ collections: 'posts' })),
      403,
      'Forbidden',
      'Real-time subscriptions require a plan with reactive mode (Business or higher)',
    );
    // Open streams end when the plan loses reactive mode.
    await many.ended;
    expect(many.events.at(-1)).toEqual({ event: 'reconnect', data: { reason: 'plan_changed' } });
  });
});

describe('GET /subscribe: hand-off and back-pressure', () => {
  it('race: 50 subscribers connecting at random moments during a write burst each see strictly consecutive versions', async () => {
    // Snapshot reads answer late, so writes land and their messages arrive while they are in flight.
    const w = await world({ coalesceMs: 5, slowReadsMs: 20 });
    await expectConsecutiveVersionsDuringWriteBurst(w, (url) => connect(url), { spreadMs: 300, extraWrites: 50, awaitFinalPage: false });
  });

  it('recomputes a collection page once per window for all subscribers, not per write or per subscriber', async () => {
    const w = await world({ coalesceMs: 100 });
    const { apiKey } = await w.createKey();
    await w.putCollection('hot');
    const clients20 = await Promise.all(Array.from({ length: 20 }, () => connect(w.subscribeUrl({ apiKey, collections: 'hot' }))));
    for (const client of clients20) await client.waitFor((e) => e.data?.collectionSlug === 'hot', 'snapshot');
    const readsBefore = w.hub.stats().pageReads;
    // A burst without yielding to timers: all of it lands in one coalescing window.
    for (let i = 0; i < 50; i++) await w.putItem('hot', `item-${i}`, { i });
    for (const client of clients20) await client.waitFor((e) => e.data?.data?.total === 50, 'page with 50 items');
    expect(w.hub.stats().pageReads - readsBefore).toBe(1);
    for (const client of clients20) expect(client.events.filter((e) => e.data?.collectionSlug === 'hot')).toHaveLength(2);
  });

  it('cuts a client that stops reading with slow_consumer and keeps its buffer bounded', async () => {
    const maxBufferedBytes = 256 * 1024;
    const w = await world({ maxBufferedBytes, closeGraceMs: 60_000 });
    const { apiKey } = await w.createKey();
    await w.putCollection('big');
    await w.putItem('big', 'blob', { text: '' });
    const slow = await connect(w.subscribeUrl({ apiKey, dataIds: 'blob' }));
    const fine = await connect(w.subscribeUrl({ apiKey, collections: 'big' }));
    await slow.waitFor(isItem('blob'), 'snapshot');
    await fine.waitFor((e) => e.data?.collectionSlug === 'big', 'snapshot');
    slow.pause();

    const text = 'x'.repeat(32 * 1024);
    let writes = 0;
    while ((w.hub.stats().ended.slow_consumer ?? 0) === 0) {
      expect(writes++).toBeLessThan(5_000); // the socket buffers of loopback are a few MiB at most
      await w.putItem('big', 'blob', { text, writes });
      await tick();
    }
    const stats = w.hub.stats();
    // Bounded: a connection never holds more unsent bytes than the bound.
    expect(stats.peakBufferedBytesPerStream).toBeLessThanOrEqual(maxBufferedBytes);
    expect(stats.peakBufferedBytesPerStream).toBeGreaterThan(maxBufferedBytes / 2);
    expect(stats.streams).toBe(1); // the fine one stays
    expect(fine.isEnded()).toBe(false);

    slow.resume();
    await slow.ended;
    expect(slow.events.at(-1)).toMatchObject({ event: 'reconnect', data: { reason: 'slow_consumer' } });
    // Asked to wait a while before it comes back (docs/subscriptions.md, "Reconnect hints").
    expect(slow.events.at(-1)?.data.retryAfterMs).toBeGreaterThanOrEqual(5_000);
    const versions = slow.events.filter(isItem('blob')).map((e) => e.data.version as number);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1] as number);
  });

  it('destroys the socket of a cut client that never reads again, so the server holds nothing for it', async () => {
    const maxBufferedBytes = 128 * 1024;
    const w = await world({ maxBufferedBytes, closeGraceMs: 100 });
    const { apiKey } = await w.createKey();
    await w.putCollection('big');
    await w.putItem('big', 'blob', { text: '' });
    const stuck = await connect(w.subscribeUrl({ apiKey, dataIds: 'blob' }));
    await stuck.waitFor(isItem('blob'), 'snapshot');
    stuck.pause();
    expect(await w.openSockets()).toBe(1);

    const text = 'y'.repeat(32 * 1024);
    let writes = 0;
    while ((w.hub.stats().ended.slow_consumer ?? 0) === 0) {
      expect(writes++).toBeLessThan(5_000);
      await w.putItem('big', 'blob', { text, writes });
      await tick();
    }
    expect(w.hub.stats()).toMatchObject({ streams: 0, connecting: 0, bufferedBytes: 0 });
    // The grace period passes without the client reading: the server destroys the socket.
    while ((await w.openSockets()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(w.hub.stats().peakBufferedBytesPerStream).toBeLessThanOrEqual(maxBufferedBytes);
    // Writes after the cut cost nothing for it.
    await w.putItem('big', 'blob', { text, writes: -1 });
    expect(w.hub.stats().bufferedBytes).toBe(0);
  });
});
