import type { ChangeMessage } from '@pubstream/change-stream';
import { createMemoryStores, type ProjectionStore, type Stores } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { append, hashOf, occurredAt, snapshot, uuidOf, writeHistory } from './testing/history.js';
import { createTestChangeStream } from './testing/testChangeStream.js';
import { decodeEvents, projectBatch, PROJECTIONS } from './index.js';
import { publishedCheckpointName } from './projector.js';
import { entityVersions, EVERY_VERSION, open, projectorRunner, waitUntil, withOverrides } from './testing/projectorHarness.js';

const startProjector = projectorRunner();

describe('projector on SQLite + memory read model', () => {
  it('projects items, collections, keys and the plan', async () => {
    const { eventStore, stores } = open();
    const { changeStream } = await createTestChangeStream();
    const head = await writeHistory(eventStore);
    const projector = startProjector({ eventStore, stores, changeStream, batchSize: 4 });
    expect(await projector.waitFor(head, 5_000)).toBe(true);

    const a1 = await stores.readModel.getItem('a1');
    expect(a1).toEqual({ id: uuidOf(1), dataId: 'a1', collectionId: 'news', data: { rank: 3, title: 'one, again' }, createdAt: occurredAt(2), updatedAt: occurredAt(4), version: 1, position: 4 });
    expect(await stores.readModel.getItem('a3')).toBeNull();
    expect(await stores.readModel.countItems('news')).toBe(2);
    const page = await stores.readModel.getCollectionPage('news', { sort: 'rank', order: 'asc', offset: 0, limit: 10 });
    expect(page?.items.map((i) => i.dataId)).toEqual(['a2', 'a1']);
    expect(await stores.readModel.getCollection('news')).toMatchObject({ name: 'All news', createdAt: occurredAt(1), updatedAt: occurredAt(7), version: 1 });
    expect(await stores.readModel.getCollection('tmp')).toBeNull();
    expect(await stores.keys.getKeyByHash(hashOf('a'))).toEqual({
      keyId: 'k1', keyHash: hashOf('a'), name: 'Site v2', type: 'live', last4: 'wxyz', allowedDomains: ['a.com', '*.b.com'], rateLimit: 50, createdAt: occurredAt(8), version: 1,
    });
    expect(await stores.keys.getKeyByHash(hashOf('b'))).toBeNull();
    expect(await stores.keys.getPlan()).toEqual({ plan: 'enterprise', monthlyQuota: null, version: 0 });
    const status = await projector.status();
    expect(status).toMatchObject({ applied: head, head, lagEvents: 0 });
    await waitUntil(async () => (await projector.status()).published === head);
  });

  it('publishes one change message per applied op, in log order, with versions and positions', async () => {
    const { eventStore, stores } = open();
    const { changeStream, received } = await createTestChangeStream();
    const head = await writeHistory(eventStore);
    const projector = startProjector({ eventStore, stores, changeStream, batchSize: 3 });
    await projector.waitFor(head, 5_000);
    await waitUntil(() => received.length >= 16);
    expect(entityVersions(received)).toEqual(EVERY_VERSION);
    const positions = received.map((m) => m.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(received[3]).toMatchObject({ kind: 'item', data: { rank: 3, title: 'one, again' }, collectionId: 'news' });
    expect(received[10]).toMatchObject({ kind: 'key', keyHash: hashOf('b') });

    // Live events after the catch-up are announced too, exactly once.
    const position = await append(eventStore, 'item-a2', 'ItemUpdated', { dataId: 'a2', collection: 'news', data: { rank: 9 } });
    await projector.waitFor(position, 5_000);
    await waitUntil(() => received.length >= 17);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(entityVersions(received.slice(16))).toEqual(['item:a2:update@1']);
  });

  it('replaying any range twice changes nothing', async () => {
    const { eventStore, stores } = open();
    const { changeStream } = await createTestChangeStream();
    const head = await writeHistory(eventStore);
    await startProjector({ eventStore, stores, changeStream }).waitFor(head, 5_000);
    const before = await snapshot(stores);

    // The whole log again, through a second projector with its own checkpoint.
    await startProjector({ eventStore, stores, changeStream, name: 'replay', batchSize: 2 }).waitFor(head, 5_000);
    expect(await snapshot(stores)).toEqual(before);

    // Every sub-range again, folded over the current records.
    const all = [];
    for await (const event of eventStore.readAll()) all.push(event);
    for (let from = 0; from < all.length; from += 3) {
      const range = all.slice(from, from + 5);
      const ops = await projectBatch(PROJECTIONS, stores, decodeEvents(range));
      const changed = await stores.projections.apply(ops.map((o) => o.op), { projection: 'manual', position: range.at(-1)?.position ?? 0 });
      expect(changed.every((c) => !c)).toBe(true);
    }
    expect(await snapshot(stores)).toEqual(before);

    // And a fresh read model built twice over equals the live one.
    const fresh = createMemoryStores();
    for (let pass = 0; pass < 2; pass++) {
      const ops = await projectBatch(PROJECTIONS, fresh, decodeEvents(all));
      await fresh.projections.apply(ops.map((o) => o.op), { projection: 'projector', position: head });
    }
    expect(await snapshot(fresh)).toEqual(before);
  });

  it('skips unknown and invalid events without stopping, and upcasts old schema versions', async () => {
    const { eventStore, stores } = open();
    const { changeStream } = await createTestChangeStream();
    await append(eventStore, 'other-x', 'SomethingFromTheFuture', { x: 1 });
    await append(eventStore, 'item-bad', 'ItemCreated', { id: 'not-a-uuid', dataId: 'bad', collection: 'news', data: {} });
    await append(eventStore, 'apikey-old', 'ApiKeyCreated', { keyId: 'old', name: 'v1 key', type: 'live', keyHash: hashOf('c'), last4: 'zzzz', domains: 'a.com, *.b.com', rateLimit: 5 }, { schemaVersion: 1 });
    const head = await append(eventStore, 'item-ok', 'ItemCreated', { id: uuidOf(9), dataId: 'ok', collection: 'news', data: {} });
    const projector = startProjector({ eventStore, stores, changeStream });
    expect(await projector.waitFor(head, 5_000)).toBe(true);
    expect(await stores.readModel.getItem('bad')).toBeNull();
    expect(await stores.readModel.getItem('ok')).not.toBeNull();
    expect((await stores.keys.getKey('old'))?.allowedDomains).toEqual(['a.com', '*.b.com']);
  });

  it('after a crash between the read-model write and the publish, every committed version is still published', async () => {
    const { eventStore, stores } = open();
    const head = await writeHistory(eventStore);
    // The broker is gone for good: every publish fails until the projector "crashes".
    const first = await createTestChangeStream({ failPublishes: Infinity });
    // A long retry delay: the first projector does not recover on its own before it "crashes".
    const crashed = startProjector({ eventStore, stores, changeStream: first.changeStream, batchSize: 5, retry: { initialMs: 60_000 } });
    // The first batch is written, then its publish fails: the projector stops there.
    await waitUntil(() => first.failures() >= 1);
    await crashed.stop();
    expect(first.received).toEqual([]);
    const applied = await stores.projections.getCheckpoint('projector');
    expect(applied).toBeGreaterThan(0);
    expect(await stores.projections.getCheckpoint(publishedCheckpointName('projector'))).toBeLessThan(applied);

    const second = await createTestChangeStream();
    const restarted = startProjector({ eventStore, stores, changeStream: second.changeStream, batchSize: 5 });
    await waitUntil(async () => (await restarted.status()).published === head);
    const delivered = new Set(entityVersions([...first.received, ...second.received]));
    const fromScratch = await createTestChangeStream();
    const reference = startProjector({ eventStore, stores: createMemoryStores(), changeStream: fromScratch.changeStream });
    await reference.waitFor(head, 5_000);
    await waitUntil(() => fromScratch.received.length === 16);
    for (const committed of entityVersions(fromScratch.received)) expect(delivered).toContain(committed);
  });

  it('killed between the write and the publish 20 times in a row, every committed version still reaches subscribers', async () => {
    const { eventStore, stores } = open();
    const delivered: ChangeMessage[] = [];
    let head = await append(eventStore, 'collection-news', 'CollectionCreated', { slug: 'news', name: 'News', sortableFields: [] });
    for (let round = 0; round < 20; round++) {
      const before = head;
      for (let i = 0; i < 3; i++) {
        const dataId = `r${i}`;
        const exists = round > 0;
        head = await append(eventStore, `item-${dataId}`, exists ? 'ItemUpdated' : 'ItemCreated', exists ? { dataId, collection: 'news', data: { round } } : { id: uuidOf(100 + i), dataId, collection: 'news', data: { round } });
      }
      // Each incarnation republishes what its predecessor left, writes the new events, then "dies"
      // when publishing them.
      const dying = await createTestChangeStream({ dieWhen: (messages) => messages.some((m) => m.position > before) });
      const projector = startProjector({ eventStore, stores, changeStream: dying.changeStream, batchSize: 2, retry: { initialMs: 60_000 } });
      await waitUntil(() => dying.failures() >= 1);
      await projector.stop();
      expect(await stores.projections.getCheckpoint('projector')).toBeGreaterThan(before);
      delivered.push(...dying.received);
    }
    const healthy = await createTestChangeStream();
    const last = startProjector({ eventStore, stores, changeStream: healthy.changeStream });
    await waitUntil(async () => (await last.status()).published === head);
    delivered.push(...healthy.received);
    const seen = new Set(entityVersions(delivered));
    expect(seen).toContain('collection:news:update@0');
    for (let i = 0; i < 3; i++) for (let version = 0; version < 20; version++) expect(seen).toContain(`item:r${i}:update@${version}`);
  });

  it('a transient read-model error stops it advancing; it retries and resumes from its checkpoint', async () => {
    const { eventStore, stores } = open();
    const { changeStream, received } = await createTestChangeStream();
    let failures = 2;
    const flaky: Stores = {
      ...stores,
      projections: withOverrides(stores.projections, {
        apply: async (...args: Parameters<ProjectionStore['apply']>) => {
          if (failures > 0) {
            failures -= 1;
            throw new Error('connection refused');
          }
          return stores.projections.apply(...args);
        },
      }),
    };
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (_o: object, msg: string) => void errors.push(msg) };
    const head = await writeHistory(eventStore);
    const projector = startProjector({ eventStore, stores: flaky, changeStream, logger, retry: { initialMs: 10 } });
    expect(await projector.waitFor(head, 5_000)).toBe(true);
    expect(errors.length).toBe(2);
    await waitUntil(() => received.length >= 16);
    expect(new Set(entityVersions(received)).size).toBe(16);
  });

  it('waitFor resolves false when the position is not reached in time', async () => {
    const { eventStore, stores } = open();
    const { changeStream } = await createTestChangeStream();
    const projector = startProjector({ eventStore, stores, changeStream });
    expect(await projector.waitFor(1_000, 50)).toBe(false);
  });
});

