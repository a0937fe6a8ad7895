import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventSourceLike, StreamEventLike } from './eventSourceResolver.js';
import { listenToStream, type StreamListenerDeps } from './streamListeners.js';
import { defaultStreamTuning } from './streamTuning.js';
import { createTimerSet } from './timerSet.js';
import type { BatchResult } from './types.js';

class FakeStream implements EventSourceLike {
  readyState = 1;
  private listeners = new Map<string, ((event: StreamEventLike) => void)[]>();
  addEventListener(type: string, listener: (event: StreamEventLike) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {}
  emit(type: string, payload?: unknown, extra: Omit<StreamEventLike, 'data'> = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: payload === undefined ? undefined : JSON.stringify(payload), ...extra });
  }
}

function listen(confirm: (ids: string[]) => Promise<BatchResult> = async (ids) => ({ data: [], found: 0, notFound: ids }), resuming = false) {
  const es = new FakeStream();
  const calls: string[] = [];
  let current = true;
  const deps: StreamListenerDeps = {
    sink: {
      confirmItems: confirm,
      onItem: (id, data) => calls.push(`item ${id} ${JSON.stringify(data)}`),
      onCollection: (slug, page) => calls.push(`collection ${slug} ${page.total}`),
      onConnected: (event) => calls.push(`connected ${event.connectionId}`),
      onError: (error) => calls.push(`error ${error.message}`),
    },
    watched: { collections: ['news'], dataIds: ['a', 'b'] },
    timers: createTimerSet(),
    tuning: { ...defaultStreamTuning, snapshotQuietMs: 100, snapshotMaxMs: 1_000 },
    isCurrent: () => current,
    resuming,
    onPosition: (position) => calls.push(`position ${position}`),
    onLive: () => calls.push('live'),
    onStale: () => calls.push('stale'),
    onReconnect: (payload) => calls.push(`reconnect ${payload?.reason}`),
    onFailure: (event) => calls.push(`failure ${event.message}`),
  };
  listenToStream(es, deps);
  return { es, calls, deps, replace: () => (current = false) };
}

describe('listenToStream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a snapshot, then items and pages reach the sink, and a watched id it missed is confirmed as deleted', async () => {
    const { es, calls } = listen();
    es.emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    es.emit('update', { dataId: 'a', data: { n: 1 }, action: 'update' });
    es.emit('update', { collectionSlug: 'news', data: { data: [], total: 3, page: 1, limit: 20, totalPages: 1 }, action: 'update' });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toEqual(['live', 'connected c1', 'item a {"n":1}', 'collection news 3', 'item b null']);
  });

  it('given a frame for an id while its confirmation is on the way, then the frame wins', async () => {
    let answer!: (result: BatchResult) => void;
    const { es, calls } = listen(() => new Promise((resolve) => (answer = resolve)));
    es.emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    await vi.advanceTimersByTimeAsync(100);
    es.emit('delete', { dataId: 'a', data: {}, action: 'delete' });
    answer({ data: [{ dataId: 'a', data: { old: true } }, { dataId: 'b', data: { n: 2 } }], found: 2, notFound: [] });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['live', 'connected c1', 'item a null', 'item b {"n":2}']);
  });

  it('given a failed confirmation, then its error is reported', async () => {
    const { es, calls } = listen(() => Promise.reject(new Error('read API down')));
    es.emit('connected', { connectionId: 'c1', ttlMs: 60_000 });
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.at(-1)).toBe('error read API down');
  });

  it('given a stream that outlives its lifetime without reconnect, then it is stale; a reconnect cancels that', async () => {
    const first = listen();
    first.es.emit('connected', { connectionId: 'c1', ttlMs: 1_000 });
    await vi.advanceTimersByTimeAsync(6_250);
    expect(first.calls.at(-1)).toBe('stale');

    const second = listen();
    second.es.emit('connected', { connectionId: 'c2', ttlMs: 1_000 });
    second.es.emit('reconnect', { reason: 'cycle' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(second.calls).not.toContain('stale');
    expect(second.calls).toContain('reconnect cycle');
  });

  it('given an error, then the owner hears it and the snapshot and lifetime timers stop', async () => {
    const { es, calls, deps } = listen();
    es.emit('connected', { connectionId: 'c1', ttlMs: 1_000 });
    es.emit('error', undefined, { message: 'socket hang up' });
    expect(deps.timers.size).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual(['live', 'connected c1', 'failure socket hang up']);
  });

  it('given the stream was replaced, then its events are ignored', async () => {
    const { es, calls, replace } = listen();
    replace();
    es.emit('connected', { connectionId: 'c1', ttlMs: 1_000 });
    es.emit('update', { dataId: 'a', data: {}, action: 'update' });
    es.emit('reconnect', { reason: 'cycle' });
    es.emit('error', undefined, { message: 'x' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([]);
  });

  it('given ready after a snapshot, then the watched ids it did not mention are missing at once, without asking the read API', async () => {
    let asked = 0;
    const { es, calls } = listen(async (ids) => (asked++, { data: [], found: 0, notFound: ids }));
    es.emit('connected', { connectionId: 'c1', ttlMs: 300_000 });
    es.emit('update', { dataId: 'a', data: { v: 1 }, action: 'update', version: 1 });
    es.emit('ready', { position: 42 }, { lastEventId: '42' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toEqual(['live', 'connected c1', 'item a {"v":1}', 'item b null', 'position 42']);
    expect(asked).toBe(0);
  });

  it('tracks the id of every change and of ready; an event without id (a page) keeps the last one', () => {
    const { es, calls } = listen();
    es.emit('connected', { connectionId: 'c1', ttlMs: 300_000 });
    es.emit('ready', { position: 10 }, { lastEventId: '10' });
    es.emit('update', { dataId: 'a', data: { v: 2 }, action: 'update', version: 2 }, { lastEventId: '12' });
    es.emit('update', { collectionSlug: 'news', data: { data: [], total: 3, page: 1, limit: 20, totalPages: 1 }, action: 'update' }, { lastEventId: '' });
    es.emit('delete', { dataId: 'b', data: {}, action: 'delete', version: 4 }, { lastEventId: '15' });
    expect(calls.filter((call) => call.startsWith('position'))).toEqual(['position 10', 'position 12', 'position 15']);
  });

  it('given a resume, then no snapshot is awaited (nothing is confirmed), unless reset announces one', async () => {
    let asked = 0;
    const { es, calls } = listen(async (ids) => (asked++, { data: [], found: 0, notFound: ids }), true);
    es.emit('connected', { connectionId: 'c2', ttlMs: 300_000 });
    es.emit('update', { dataId: 'a', data: { v: 3 }, action: 'update', version: 3 }, { lastEventId: '20' });
    es.emit('ready', { position: 25 }, { lastEventId: '25' });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(asked).toBe(0);
    expect(calls).not.toContain('item b null');

    es.emit('reset', { reason: 'position_expired' });
    es.emit('update', { dataId: 'a', data: { v: 9 }, action: 'update', version: 9 });
    es.emit('ready', { position: 90 }, { lastEventId: '90' });
    expect(calls.slice(-3)).toEqual(['item a {"v":9}', 'item b null', 'position 90']);
  });
});
