import { describe, expect, it, vi } from 'vitest';
import { createClient } from './createClient.js';
import type { PubstreamError } from './errors.js';
import type { EventSourceLike, StreamEventLike } from './eventSourceResolver.js';
import type { CollectionPage } from './types.js';
import type { WatchedItem } from './localCopy.js';

/** An in-memory EventSource: the test plays the server by emitting events on the latest instance. */
class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  private listeners = new Map<string, ((event: StreamEventLike) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: StreamEventLike) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, payload?: unknown, extra: Omit<StreamEventLike, 'data'> = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: payload === undefined ? undefined : JSON.stringify(payload), ...extra });
  }
  get query() {
    return new URL(this.url).searchParams;
  }
}

const latest = () => FakeEventSource.instances.at(-1)!;

function setup(batchAnswer: (ids: string[]) => { data: { dataId: string; data: Record<string, unknown> }[]; notFound: string[] } = (ids) => ({ data: [], notFound: ids })) {
  FakeEventSource.instances = [];
  const errors: PubstreamError[] = [];
  const client = createClient({
    baseUrl: 'http://pubstream.invalid',
    apiKey: 'pk_test_abc',
    reactive: true,
    EventSource: FakeEventSource,
    retry: { baseDelayMs: 10, maxDelayMs: 20 },
    stream: { debounceMs: 5, snapshotQuietMs: 20, snapshotMaxMs: 200 },
    onStreamError: (error) => errors.push(error),
    fetch: async (_url, init) => {
      const { dataIds } = JSON.parse(String(init?.body)) as { dataIds: string[] };
      const answer = batchAnswer(dataIds);
      return new Response(JSON.stringify({ ...answer, found: answer.data.length }), { status: 200 });
    },
  });
  return { client, errors };
}

const page = (total: number): CollectionPage => ({ data: [], total, page: 1, limit: 20, totalPages: Math.ceil(total / 20) });

describe('reactive mode', () => {
  it('opens one stream for everything watched, with the key and comma-joined lists', async () => {
    const { client } = setup();
    client.watchData('a', () => {});
    client.watchData('b', () => {});
    client.watchCollection('news', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const { query } = latest();
    expect(new URL(latest().url).pathname).toBe('/subscribe');
    expect(query.get('apiKey')).toBe('pk_test_abc');
    expect(query.get('dataIds')).toBe('a,b');
    expect(query.get('collections')).toBe('news');
    client.close();
  });

  it('re-opens when the watched set changes and closes when nothing is watched', async () => {
    const { client } = setup();
    const stopA = client.watchData('a', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const stopB = client.watchData('b', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(latest().query.get('dataIds')).toBe('a,b');
    stopA();
    stopB();
    await vi.waitFor(() => expect(latest().closed).toBe(true));
    expect(FakeEventSource.instances).toHaveLength(2);
    client.close();
  });

  it('applies the snapshot and deltas and notifies only on change', async () => {
    const { client } = setup();
    const items: WatchedItem[] = [];
    const pages: CollectionPage[] = [];
    client.watchData('a', (item) => items.push(item));
    client.watchCollection('news', (p) => pages.push(p));
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    latest().emit('update', { dataId: 'a', data: { n: 1 }, action: 'update' });
    latest().emit('update', { collectionSlug: 'news', data: page(3), action: 'update' });
    latest().emit('update', { dataId: 'a', data: { n: 1 }, action: 'update' });
    latest().emit('update', { dataId: 'a', data: { n: 2 }, action: 'update' });
    latest().emit('delete', { dataId: 'a', data: {}, action: 'delete' });
    expect(items).toEqual([{ dataId: 'a', data: { n: 1 } }, { dataId: 'a', data: { n: 2 } }, null]);
    expect(pages).toEqual([page(3)]);
    expect(client.currentCollection('news')).toEqual(page(3));
    client.close();
  });

  it('reconnects at once on `reconnect` and takes the new snapshot', async () => {
    const { client } = setup();
    const items: WatchedItem[] = [];
    client.watchData('a', (item) => items.push(item));
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    latest().emit('update', { dataId: 'a', data: { n: 1 }, action: 'update' });
    latest().emit('reconnect', { reason: 'cycle' });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    latest().emit('connected', { connectionId: 'c2', ttlMs: 60_000 });
    latest().emit('update', { dataId: 'a', data: { n: 5 }, action: 'update' });
    expect(items.at(-1)).toEqual({ dataId: 'a', data: { n: 5 } });
    client.close();
  });

  it('waits the retryAfterMs of a shutdown or a cut before reconnecting, and backs off when cut again and again', async () => {
    vi.useFakeTimers();
    try {
      const { client } = setup();
      client.watchData('a', () => {});
      await vi.advanceTimersByTimeAsync(10);
      expect(FakeEventSource.instances).toHaveLength(1);
      // A draining node: wait the spread-out hint, not a moment less.
      latest().emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
      latest().emit('reconnect', { reason: 'shutdown', retryAfterMs: 3_000 });
      expect(FakeEventSource.instances[0]!.closed).toBe(true);
      await vi.advanceTimersByTimeAsync(2_990);
      expect(FakeEventSource.instances).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(20);
      expect(FakeEventSource.instances).toHaveLength(2);

      // Cut as a slow consumer again and again: each wait is longer, never a loop.
      const waits: number[] = [];
      for (let cut = 0; cut < 4; cut++) {
        const before = FakeEventSource.instances.length;
        latest().emit('connected', { connectionId: `c${cut}`, ttlMs: 60_000 });
        latest().emit('reconnect', { reason: 'slow_consumer', retryAfterMs: 1_000 });
        let waited = 0;
        while (FakeEventSource.instances.length === before) {
          await vi.advanceTimersByTimeAsync(100);
          waited += 100;
          expect(waited).toBeLessThanOrEqual(60_000);
        }
        waits.push(waited);
      }
      expect(waits[0]).toBeGreaterThanOrEqual(1_000);
      expect(waits[0]).toBeLessThanOrEqual(1_100);
      expect(waits[2]).toBeGreaterThanOrEqual(2_000);
      expect(waits[3]).toBeGreaterThanOrEqual(4_000);

      // A stream that lives to its cycle resets the count: the next cut waits the hint only.
      latest().emit('connected', { connectionId: 'ok', ttlMs: 60_000 });
      latest().emit('reconnect', { reason: 'cycle' });
      await vi.advanceTimersByTimeAsync(10);
      const afterCycle = FakeEventSource.instances.length;
      latest().emit('connected', { connectionId: 'again', ttlMs: 60_000 });
      latest().emit('reconnect', { reason: 'slow_consumer', retryAfterMs: 1_000 });
      await vi.advanceTimersByTimeAsync(1_010);
      expect(FakeEventSource.instances).toHaveLength(afterCycle + 1);
      client.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports an item missing from a new snapshot as deleted once the read API confirms it', async () => {
    const { client } = setup((ids) => ({ data: [], notFound: ids }));
    const items: WatchedItem[] = [];
    client.watchData('a', (item) => items.push(item));
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    latest().emit('update', { dataId: 'a', data: { n: 1 }, action: 'update' });
    latest().emit('reconnect', { reason: 'cycle' });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    latest().emit('connected', { connectionId: 'c2', ttlMs: 60_000 });
    await vi.waitFor(() => expect(items.at(-1)).toBeNull());
    client.close();
  });

  it('reconnects with backoff after network loss', async () => {
    const { client, errors } = setup();
    client.watchData('a', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('error', undefined, { message: 'socket hang up' });
    latest().emit('error', undefined, { message: 'again' });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(errors[0]?.name).toBe('NetworkError');
    client.close();
  });

  it('does not retry a subscription the server refused (401) until the watched set changes', async () => {
    const { client, errors } = setup();
    client.watchData('a', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('error', undefined, { code: 401, message: 'Non-200 status code (401)' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(errors.map((e) => e.name)).toEqual(['UnauthorizedError']);
    client.watchData('b', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    client.close();
  });

  it('refuses to watch without reactive mode', () => {
    const client = createClient({ baseUrl: 'http://pubstream.invalid', apiKey: 'pk_test_abc' });
    expect(() => client.watchData('a', () => {})).toThrow(/reactive: true/);
  });

  it('resumes with the last id it received (from=) after a cycle and a drop, and starts fresh when the watched set changes', async () => {
    const { client } = setup();
    client.watchData('a', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    expect(latest().query.get('from')).toBeNull();
    latest().emit('connected', { connectionId: 'c1', ttlMs: 300_000 });
    latest().emit('update', { dataId: 'a', data: { v: 1 }, action: 'update', version: 1 });
    latest().emit('ready', { position: 40 }, { lastEventId: '40' });
    latest().emit('update', { dataId: 'a', data: { v: 2 }, action: 'update', version: 2 }, { lastEventId: '41' });
    expect(client.streamPosition()).toBe(41);

    latest().emit('reconnect', { reason: 'cycle' });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(latest().query.get('from')).toBe('41');
    latest().emit('connected', { connectionId: 'c2', ttlMs: 300_000 });
    latest().emit('update', { dataId: 'a', data: { v: 3 }, action: 'update', version: 3 }, { lastEventId: '47' });
    latest().emit('ready', { position: 50 }, { lastEventId: '50' });
    expect(client.currentData('a')).toEqual({ dataId: 'a', data: { v: 3 } });

    latest().emit('error', undefined, { message: 'network down' });
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(3));
    expect(latest().query.get('from')).toBe('50');

    client.watchData('b', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(4));
    expect(latest().query.get('from')).toBeNull();
    client.close();
  });

  it('forgets its position when the watched set changes, even if it comes back to the same set', async () => {
    const { client } = setup();
    const stopA = client.watchData('a', () => {});
    await vi.waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    latest().emit('connected', { connectionId: 'c1', ttlMs: 300_000 });
    latest().emit('ready', { position: 40 }, { lastEventId: '40' });
    const stopB = client.watchData('b', () => {});
    stopB();
    await vi.waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThanOrEqual(2));
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Back to {a}: 'b' was forgotten meanwhile, and so was the position: a snapshot, not a resume.
    expect(latest().query.get('dataIds')).toBe('a');
    expect(latest().query.get('from')).toBeNull();
    stopA();
    client.close();
  });
});
