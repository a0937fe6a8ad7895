import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceUnavailableError, type PlanName } from '@pubstream/domain';
import type { ChangeMessage, ChangeStreamHandlers } from '@pubstream/change-stream';
import type { ItemRecord, PageResult } from '@pubstream/read-model';
import { createFanoutHub, type FanoutHubOptions, type OpenStreamParams } from './fanoutHub.js';
import { createReconnectHints } from './reconnectHints.js';
import type { HistoryChange } from './hubReads.js';
import { itemUpdateFrame, withId } from './sseFrames.js';
import { recordingConnection } from './testing/recordingConnection.js';

const record = (dataId: string, version: number): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'news',
  data: { v: version },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
  position: version,
});
const itemMessage = (dataId: string, version: number, collectionId = 'news'): ChangeMessage => ({
  kind: 'item',
  action: 'update',
  dataId,
  collectionId,
  version,
  position: version,
  data: { v: version },
});
const versionsIn = (frames: string[]) => frames.filter((frame) => frame.includes('"dataId"')).map((frame) => JSON.parse(frame.split('data: ')[1] ?? '{}').version);

/** A hub over in-memory reads and a change stream the test drives by hand. */
const world = (options: Partial<FanoutHubOptions> = {}) => {
  const items = new Map<string, ItemRecord>();
  const pages = new Map<string, PageResult>([['news', { items: [], total: 0, position: 0 }]]);
  const history: HistoryChange[] = [];
  const applied = { position: 0 };
  let plan: PlanName = 'business';
  let handlers: ChangeStreamHandlers | undefined;
  const hub = createFanoutHub({
    reads: {
      getItems: async (dataIds) => dataIds.map((dataId) => items.get(dataId) ?? null),
      getCollectionPage: async (slug) => pages.get(slug) ?? null,
    },
    positions: {
      appliedPosition: async () => applied.position,
      historyFloor: async () => 0,
      itemChanges: async (dataIds, after, until) => history.filter((c) => dataIds.includes(c.dataId) && c.position > after && c.position <= until),
    },
    plans: { getPlan: async () => ({ plan }) },
    changeStream: {
      subscribe: async (given) => {
        handlers = given;
        return { close: async () => {} };
      },
    },
    coalesceMs: 10,
    ...options,
  });
  const publish = (...messages: ChangeMessage[]) => handlers?.onMessages(messages);
  /** Opens, reads the snapshot and attaches a stream, as the route does. */
  const connect = async (params: Partial<OpenStreamParams> = {}) => {
    const stream = hub.open({ keyId: 'k1', keyHash: 'h1', dataIds: [], slugs: [], ...params });
    const connection = recordingConnection();
    stream.attach(connection, await stream.readStart(null));
    return connection;
  };
  /** Writes an item as the projector would: record, history entry and applied position (no message). */
  const write = (dataId: string, version: number) => {
    items.set(dataId, record(dataId, version));
    history.push({ position: version, dataId, collectionId: 'news', action: 'update', version, data: { v: version } });
    applied.position = Math.max(applied.position, version);
  };
  return { hub, items, pages, publish, connect, write, gap: (reason: string) => handlers?.onGap?.(reason), setPlan: (name: PlanName) => void (plan = name) };
};

describe('fanout hub: deltas and the hand-off', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given deltas while the snapshot is read, then only newer ones follow it; duplicates and stale ones never reach the client', async () => {
    const w = world();
    await w.hub.start();
    w.write('hero', 1);
    const stream = w.hub.open({ keyId: 'k1', keyHash: 'h1', dataIds: ['hero'], slugs: [] });
    const reading = stream.readStart(null);
    w.publish(itemMessage('hero', 1), itemMessage('hero', 2));
    const connection = recordingConnection();
    stream.attach(connection, await reading);
    w.publish(itemMessage('hero', 2), itemMessage('hero', 1), itemMessage('hero', 3));
    expect(versionsIn(connection.frames)).toEqual([1, 2, 3]);
    expect(w.hub.stats().changeMessages).toBe(5);
  });

  it('given a burst of changes in a followed collection, then its page is read once per window and reaches every subscriber', async () => {
    const w = world();
    await w.hub.start();
    const first = await w.connect({ slugs: ['news'] });
    const second = await w.connect({ slugs: ['news'] });
    const readsBefore = w.hub.stats().pageReads;
    w.pages.set('news', { items: [record('a', 0)], total: 1, position: 0 });
    for (let n = 0; n < 10; n++) w.publish(itemMessage(`item-${n}`, 0));
    await vi.advanceTimersByTimeAsync(10);
    expect(w.hub.stats().pageReads - readsBefore).toBe(1);
    for (const connection of [first, second]) expect(connection.frames.at(-1)).toContain('"total":1');
  });

  it('given a gap in the change stream, then every stream catches up from its last id through the history: only the missed changes, with their ids', async () => {
    const w = world();
    await w.hub.start();
    w.write('hero', 1);
    w.write('other', 4);
    const connection = await w.connect({ dataIds: ['hero', 'other'] });
    w.write('hero', 5); // its message was lost
    w.gap('consumer restarted');
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.frames.slice(3)).toEqual([withId(5, itemUpdateFrame('hero', { v: 5 }, 5)), 'id: 5\nevent: ready\ndata: {"position":5}\n\n']);
  });
});

describe('fanout hub: ending streams', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given a deleted key, then its streams end with key_revoked and the others stay', async () => {
    const w = world();
    await w.hub.start();
    const revoked = await w.connect({ keyId: 'k1', keyHash: 'h1', dataIds: ['hero'] });
    const other = await w.connect({ keyId: 'k2', keyHash: 'h2', dataIds: ['hero'] });
    expect(w.hub.streamsForKey('k1')).toBe(1);
    w.publish({ kind: 'key', action: 'delete', keyId: 'k1', keyHash: 'h1', version: 1, position: 1 });
    expect(revoked.ends.map((end) => end.reason)).toEqual(['key_revoked']);
    expect(other.ends).toEqual([]);
    expect(w.hub.streamsForKey('k1')).toBe(0);
    expect(w.hub.stats()).toMatchObject({ streams: 1, ended: { key_revoked: 1 } });
  });

  it('given a plan change, then every stream ends only when the plan lost reactive mode', async () => {
    const w = world();
    await w.hub.start();
    const connection = await w.connect({ dataIds: ['hero'] });
    w.setPlan('enterprise');
    w.publish({ kind: 'plan', action: 'update', version: 1, position: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.ends).toEqual([]);
    w.setPlan('pro');
    w.publish({ kind: 'plan', action: 'update', version: 2, position: 2 });
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.ends.map((end) => end.reason)).toEqual(['plan_changed']);
  });

  it('given a drain, then every stream ends with shutdown and its own spread wait, new streams are refused, and drain returns when they are gone', async () => {
    const hints = createReconnectHints({ shutdownWindowMs: 10_000, random: () => 0.5 });
    const w = world({ hints });
    await w.hub.start();
    const connections = [await w.connect({ dataIds: ['a'] }), await w.connect({ dataIds: ['b'] })];
    await w.hub.drain('shutdown');
    expect(connections.map((connection) => connection.ends[0]?.reason)).toEqual(['shutdown', 'shutdown']);
    expect(connections.map((connection) => connection.ends[0]?.retryAfterMs).sort()).toEqual([2_500, 7_500]);
    expect(() => w.hub.open({ keyId: 'k1', keyHash: 'h1', dataIds: ['a'], slugs: [] })).toThrow(ServiceUnavailableError);
    expect(w.hub.stats()).toMatchObject({ streams: 0, connecting: 0, ended: { shutdown: 2 } });
  });

  it('given a stream ended while it was connecting, then the route learns why and it is not counted as open', async () => {
    const w = world();
    await w.hub.start();
    const stream = w.hub.open({ keyId: 'k1', keyHash: 'h1', dataIds: ['hero'], slugs: [] });
    expect(w.hub.stats().connecting).toBe(1);
    w.publish({ kind: 'key', action: 'delete', keyId: 'k1', keyHash: 'h1', version: 1, position: 1 });
    expect(stream.endedBeforeStart).toBe('key_revoked');
    stream.cancel();
    expect(w.hub.stats()).toMatchObject({ streams: 0, connecting: 0 });
  });

  it('given deltas piling up while a snapshot is read, then the stream is cut as a slow consumer before it starts', async () => {
    const w = world({ maxBufferedBytes: 200 });
    await w.hub.start();
    const stream = w.hub.open({ keyId: 'k1', keyHash: 'h1', dataIds: ['hero'], slugs: [] });
    for (let version = 0; version < 5; version++) w.publish(itemMessage('hero', version));
    expect(stream.endedBeforeStart).toBe('slow_consumer');
  });
});

describe('fanout hub: what it shares', () => {
  it('gives its connections one output (flusher and frame bytes), its own unless one is passed in', () => {
    const one = world().hub;
    const two = world().hub;
    expect(one.output).toBe(one.output);
    expect(one.output.bytes).not.toBe(two.output.bytes);
    expect(one.output.flusher).not.toBe(two.output.flusher);
    const shared = world({ output: one.output }).hub;
    expect(shared.output).toBe(one.output);
  });
});
