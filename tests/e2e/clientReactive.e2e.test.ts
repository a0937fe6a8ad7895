// The client's reactive mode against a real all-in-one server (HTTP, SQLite event store,
// in-process read models and change stream): watchers across forced stream cycles and a server
// restart, missing items, revoked keys and plans without reactive mode.
import { EventSource } from 'eventsource';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  ForbiddenError,
  UnauthorizedError,
  type CollectionPage,
  type ConnectedEvent,
  type PubstreamError,
  type WatchedItem,
} from '@pubstream/client';
import type { AllInOne as Server } from '../../apps/cli/src/allInOne.js';
import { eventually, slug, streamTtlMs, useClientE2eServer } from './support/clientE2eServer.js';

const e2e = useClientE2eServer();
const { admin, putItem, createKey } = e2e;
let server: Server;
let key: string;
beforeAll(() => {
  server = e2e.server;
  key = e2e.key;
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
      server = await e2e.restart();
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

describe('reactive mode: positions', () => {
  it(
    'resumes its stream with the last id (from=) after every cycle and a server restart: each written value reaches the watcher once, in order',
    async () => {
      await putItem('resumed-item', { title: 'r0' });
      const urls: string[] = [];
      class RecordingEventSource extends EventSource {
        constructor(url: string) {
          super(url);
          urls.push(url);
        }
      }
      const client = createClient({ baseUrl: server.publicUrl, apiKey: key, reactive: true, EventSource: RecordingEventSource, retry: { baseDelayMs: 100, maxDelayMs: 500 } });
      const titles: string[] = [];
      client.watchData('resumed-item', (item) => titles.push(String(item?.data.title)));
      await eventually('the snapshot', () => titles.at(-1) === 'r0' && client.streamPosition() !== undefined);
      for (let n = 1; n <= 4; n += 1) {
        const opened = urls.length;
        await putItem('resumed-item', { title: `r${n}` });
        await eventually(`r${n}`, () => titles.at(-1) === `r${n}`);
        await eventually(`cycle after r${n}`, () => urls.length > opened, streamTtlMs * 4);
      }
      server = await e2e.restart();
      await putItem('resumed-item', { title: 'r5' });
      await eventually('r5 after the restart', () => titles.at(-1) === 'r5', 30_000);
      expect(titles).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
      // Every stream after the first resumed, from positions that never go back.
      const froms = urls.slice(1).map((url) => Number(new URL(url).searchParams.get('from')));
      expect(new URL(urls[0]!).searchParams.get('from')).toBeNull();
      expect(froms.length).toBeGreaterThanOrEqual(4);
      for (const from of froms) expect(Number.isSafeInteger(from) && from > 0).toBe(true);
      expect(froms).toEqual([...froms].sort((a, b) => a - b));
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
