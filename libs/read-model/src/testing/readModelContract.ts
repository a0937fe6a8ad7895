import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FencedError, type CollectionRecord, type ItemRecord, type KeyRecord, type ReadModel, type ReadModelOp, type SortOrder } from '../readModel.js';
import { createNaiveReadModel } from './naiveReadModel.js';

export interface ReadModelContractOptions {
  /** Runs of each property test (backends over the network want fewer). */
  readonly numRuns?: number;
  /** Called after each test with the model the factory gave. */
  readonly teardown?: (readModel: ReadModel) => Promise<void>;
}

const T0 = Date.UTC(2026, 0, 1);
const iso = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

export const itemRecord = (dataId: string, collectionId: string, version: number, data: Record<string, unknown> = {}, times: { created?: number; updated?: number } = {}): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId,
  data,
  createdAt: iso(times.created ?? 0),
  updatedAt: iso(times.updated ?? times.created ?? 0),
  version,
});

export const collectionRecord = (slug: string, version: number, sortableFields: CollectionRecord['sortableFields'] = []): CollectionRecord => ({
  slug,
  name: `Collection ${slug}`,
  sortableFields,
  createdAt: iso(0),
  updatedAt: iso(0),
  version,
});

const keyRecord = (keyId: string, version: number, name = 'key'): KeyRecord => ({
  keyId,
  keyHash: `hash-${keyId}`,
  name,
  type: 'live',
  last4: 'abcd',
  allowedDomains: ['example.com'],
  rateLimit: 100,
  createdAt: iso(0),
  version,
});

const put = (item: ItemRecord): ReadModelOp => ({ kind: 'item.put', item });
const del = (dataId: string, collectionId: string, version: number): ReadModelOp => ({ kind: 'item.delete', dataId, collectionId, version });
const putCollection = (collection: CollectionRecord): ReadModelOp => ({ kind: 'collection.put', collection });
const cp = (position: number) => ({ projection: 'items', position });
const ids = (items: readonly ItemRecord[]): string[] => items.map((i) => i.dataId);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every read model adapter must show (DESIGN.md §5): version guards and replays,
 * tombstones, counts, sort orders and pages, keys, plan, checkpoints, usage, leases and fencing.
 * `factory` returns a fresh, empty read model for each test.
 */
export const testReadModelContract = (name: string, factory: () => Promise<ReadModel>, options: ReadModelContractOptions = {}): void => {
  const numRuns = options.numRuns ?? 100;

  describe(`read model contract: ${name}`, () => {
    let rm: ReadModel;
    beforeEach(async () => {
      rm = await factory();
    });
    afterEach(async () => {
      await options.teardown?.(rm);
    });

    const page = async (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => {
      const result = await rm.getCollectionPage(slug, { sort, order, offset, limit });
      if (!result) throw new Error(`collection ${slug} missing`);
      return result;
    };

    describe('items and version guards', () => {
      it('stores an item and reads it back by dataId', async () => {
        const item = itemRecord('a1', 'c', 1, { title: 'Hello', n: 1, nested: { x: [1, 2] } });
        expect(await rm.apply([put(item)], cp(1))).toEqual([true]);
        expect(await rm.getItem('a1')).toEqual(item);
        expect(await rm.getItem('nope')).toBeNull();
      });

      it('ignores a put whose version is not newer, and says so', async () => {
        await rm.apply([put(itemRecord('a1', 'c', 2, { v: 2 }))], cp(1));
        expect(await rm.apply([put(itemRecord('a1', 'c', 1, { v: 1 })), put(itemRecord('a1', 'c', 2, { v: 'same' }))], cp(2))).toEqual([false, false]);
        expect((await rm.getItem('a1'))?.data).toEqual({ v: 2 });
        expect(await rm.apply([put(itemRecord('a1', 'c', 3, { v: 3 }))], cp(3))).toEqual([true]);
        expect((await rm.getItem('a1'))?.data).toEqual({ v: 3 });
      });

      it('applying the same batch twice changes nothing the second time', async () => {
        const batch = [
          putCollection(collectionRecord('c', 1, [{ name: 'n', type: 'number' }])),
          put(itemRecord('a1', 'c', 1, { n: 1 })),
          put(itemRecord('a2', 'c', 1, { n: 2 })),
          put(itemRecord('a1', 'c', 2, { n: 3 })),
          del('a2', 'c', 2),
        ];
        expect(await rm.apply(batch, cp(5))).toEqual([true, true, true, true, true]);
        const before = { item: await rm.getItem('a1'), count: await rm.countItems('c'), page: await page('c', 'n', 'asc') };
        expect(await rm.apply(batch, cp(5))).toEqual([false, false, false, false, false]);
        expect({ item: await rm.getItem('a1'), count: await rm.countItems('c'), page: await page('c', 'n', 'asc') }).toEqual(before);
      });

      it('keeps a tombstone: a replayed older put never resurrects a deleted item', async () => {
        await rm.apply([putCollection(collectionRecord('c', 1)), put(itemRecord('a1', 'c', 1))], cp(1));
        expect(await rm.apply([del('a1', 'c', 2)], cp(2))).toEqual([true]);
        expect(await rm.getItem('a1')).toBeNull();
        expect(await rm.apply([put(itemRecord('a1', 'c', 1)), del('a1', 'c', 2)], cp(2))).toEqual([false, false]);
        expect(await rm.getItem('a1')).toBeNull();
        expect(await rm.countItems('c')).toBe(0);
        expect((await page('c', 'dataId', 'asc')).items).toEqual([]);
        // A newer version (the item created again) is a real change.
        expect(await rm.apply([put(itemRecord('a1', 'c', 3, { back: true }))], cp(3))).toEqual([true]);
        expect((await rm.getItem('a1'))?.data).toEqual({ back: true });
        expect(await rm.countItems('c')).toBe(1);
      });

      it('getItems answers in request order and length, with null where missing', async () => {
        await rm.apply([put(itemRecord('a1', 'c', 1)), put(itemRecord('a2', 'd', 1)), put(itemRecord('a3', 'c', 1)), del('a3', 'c', 2)], cp(1));
        const got = await rm.getItems(['a2', 'missing', 'a1', 'a3', 'a2']);
        expect(got.map((i) => i?.dataId ?? null)).toEqual(['a2', null, 'a1', null, 'a2']);
        expect(await rm.getItems([])).toEqual([]);
      });
    });

    describe('collections and counts', () => {
      it('counts items: a new dataId increments, an update does not, a delete decrements', async () => {
        await rm.apply([putCollection(collectionRecord('c', 1)), put(itemRecord('a1', 'c', 1)), put(itemRecord('a2', 'c', 1))], cp(1));
        expect(await rm.countItems('c')).toBe(2);
        await rm.apply([put(itemRecord('a1', 'c', 2, { x: 1 }))], cp(2));
        expect(await rm.countItems('c')).toBe(2);
        await rm.apply([del('a1', 'c', 3), del('never-existed', 'c', 1)], cp(3));
        expect(await rm.countItems('c')).toBe(1);
        expect(await rm.countItems('unknown')).toBe(0);
        expect((await page('c', 'dataId', 'asc')).total).toBe(1);
      });

      it('stores, updates and lists collection records under their version guard', async () => {
        const c1 = collectionRecord('books', 1, [{ name: 'year', type: 'number' }]);
        const c2 = { ...collectionRecord('books', 2, [{ name: 'title', type: 'string' }]), name: 'Books' };
        expect(await rm.apply([putCollection(c1), putCollection(c2), putCollection(c1), putCollection(collectionRecord('art', 1))], cp(1))).toEqual([true, true, false, true]);
        expect(await rm.getCollection('books')).toEqual(c2);
        expect(await rm.getCollection('nope')).toBeNull();
        expect((await rm.listCollections()).map((c) => c.slug).sort()).toEqual(['art', 'books']);
      });

      it('deleting a collection removes it, its page and its count; replays do not bring it back', async () => {
        const c = collectionRecord('c', 1, [{ name: 'n', type: 'number' }]);
        const batch = [putCollection(c), put(itemRecord('a1', 'c', 1, { n: 1 })), put(itemRecord('a2', 'c', 1, { n: 2 }))];
        await rm.apply(batch, cp(3));
        await page('c', 'n', 'asc');
        expect(await rm.apply([{ kind: 'collection.delete', slug: 'c', version: 2 }], cp(4))).toEqual([true]);
        expect(await rm.getCollection('c')).toBeNull();
        expect(await rm.getCollectionPage('c', { sort: 'n', order: 'asc', offset: 0, limit: 10 })).toBeNull();
        expect(await rm.countItems('c')).toBe(0);
        expect(await rm.listCollections()).toEqual([]);
        expect(await rm.apply([...batch, { kind: 'collection.delete', slug: 'c', version: 2 }], cp(4))).toEqual([false, false, false, false]);
        expect(await rm.getCollection('c')).toBeNull();
        expect(await rm.countItems('c')).toBe(0);
        // Created again (a newer version): an empty collection, with the new items only.
        await rm.apply([putCollection(collectionRecord('c', 3, [{ name: 'n', type: 'number' }])), put(itemRecord('a3', 'c', 1, { n: 0 }))], cp(5));
        const again = await page('c', 'n', 'asc');
        expect({ ids: ids(again.items), total: again.total }).toEqual({ ids: ['a3'], total: 1 });
      });
    });

    describe('collection pages', () => {
      const fields = [
        { name: 'price', type: 'number' as const },
        { name: 'title', type: 'string' as const },
      ];
      const seed = async () => {
        await rm.apply(
          [
            putCollection(collectionRecord('shop', 1, fields)),
            put(itemRecord('b', 'shop', 1, { price: 10, title: 'banana' }, { created: 3000, updated: 9000 })),
            put(itemRecord('a', 'shop', 1, { price: 10, title: 'apple' }, { created: 1000, updated: 8000 })),
            put(itemRecord('c', 'shop', 1, { price: -2.5, title: 'Zed' }, { created: 2000, updated: 7000 })),
            put(itemRecord('d', 'shop', 1, { price: '7', title: 42 }, { created: 2000, updated: 7000 })),
            put(itemRecord('e', 'shop', 1, { title: 'éclair' }, { created: 5000, updated: 5000 })),
            put(itemRecord('f', 'shop', 1, { price: 1e6, title: 'apple' }, { created: 4000, updated: 6000 })),
            put(itemRecord('g', 'shop', 1, { price: null }, { created: 6000, updated: 10000 })),
            put(itemRecord('other', 'elsewhere', 1, { price: 1 })),
          ],
          cp(1),
        );
      };

      const cases: [string, SortOrder, string[]][] = [
        ['price', 'asc', ['c', 'a', 'b', 'f', 'd', 'e', 'g']],
        ['price', 'desc', ['f', 'b', 'a', 'c', 'g', 'e', 'd']],
        ['title', 'asc', ['c', 'a', 'f', 'b', 'e', 'd', 'g']],
        ['title', 'desc', ['e', 'b', 'f', 'a', 'c', 'g', 'd']],
        ['createdAt', 'asc', ['a', 'c', 'd', 'b', 'f', 'e', 'g']],
        ['createdAt', 'desc', ['g', 'e', 'f', 'b', 'd', 'c', 'a']],
        ['updatedAt', 'asc', ['e', 'f', 'c', 'd', 'a', 'b', 'g']],
        ['updatedAt', 'desc', ['g', 'b', 'a', 'd', 'c', 'f', 'e']],
        ['dataId', 'asc', ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
        ['dataId', 'desc', ['g', 'f', 'e', 'd', 'c', 'b', 'a']],
      ];
      for (const [sort, order, expected] of cases) {
        it(`sorts by ${sort} ${order}: ties by dataId in the same direction, missing or mistyped values last`, async () => {
          await seed();
          const result = await page('shop', sort, order);
          expect(ids(result.items)).toEqual(expected);
          expect(result.total).toBe(7);
        });
      }

      it('pages by offset and limit; a page past the end is empty with the true total', async () => {
        await seed();
        const pages = [];
        for (let offset = 0; offset < 9; offset += 2) pages.push(ids((await page('shop', 'price', 'desc', offset, 2)).items));
        expect(pages).toEqual([['f', 'b'], ['a', 'c'], ['g', 'e'], ['d'], []]);
        const past = await page('shop', 'title', 'asc', 1000, 10);
        expect({ items: past.items, total: past.total }).toEqual({ items: [], total: 7 });
        expect((await page('shop', 'dataId', 'asc', 0, 0)).items).toEqual([]);
      });

      it('returns whole records in pages, and follows updates and deletes', async () => {
        await seed();
        await page('shop', 'price', 'asc');
        await rm.apply([put(itemRecord('g', 'shop', 2, { price: -100 }, { created: 6000, updated: 11000 })), del('c', 'shop', 2), put(itemRecord('a', 'shop', 2, { title: 'apple' }, { created: 1000, updated: 12000 }))], cp(2));
        const result = await page('shop', 'price', 'asc');
        expect(ids(result.items)).toEqual(['g', 'b', 'f', 'a', 'd', 'e']);
        expect(result.items[0]).toEqual(itemRecord('g', 'shop', 2, { price: -100 }, { created: 6000, updated: 11000 }));
        expect(result.total).toBe(6);
        expect(ids((await page('shop', 'updatedAt', 'desc', 0, 2)).items)).toEqual(['a', 'g']);
      });

      it('sorts by a field declared after the items were written, and forgets undeclared ones', async () => {
        await seed();
        await rm.apply([putCollection(collectionRecord('shop', 2, [{ name: 'price', type: 'string' }, { name: 'rank', type: 'number' }]))], cp(2));
        expect(ids((await page('shop', 'price', 'asc')).items)).toEqual(['d', 'a', 'b', 'c', 'e', 'f', 'g']);
        expect(ids((await page('shop', 'rank', 'asc')).items)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
        await expect(rm.getCollectionPage('shop', { sort: 'title', order: 'asc', offset: 0, limit: 10 })).rejects.toThrow();
      });

      it('orders strings by code point, including accents, emoji and the private use area', async () => {
        await rm.apply([putCollection(collectionRecord('s', 1, [{ name: 't', type: 'string' }]))], cp(1));
        const values = ['b', 'a', 'ab', '', 'B', 'é', '\u{1F600}', '\uFFFD', 'a\u0000b', 'a\u0000'];
        await rm.apply(values.map((t, i) => put(itemRecord(`x${i}`, 's', 1, { t }))), cp(2));
        const expected = values
          .map((t, i) => ({ t, id: `x${i}` }))
          .sort((p, q) => Buffer.compare(Buffer.from(p.t), Buffer.from(q.t)))
          .map((e) => e.id);
        expect(ids((await page('s', 't', 'asc')).items)).toEqual(expected);
        expect(ids((await page('s', 't', 'desc')).items)).toEqual([...expected].reverse());
      });

      it('pages deep into a large collection', async () => {
        await rm.apply([putCollection(collectionRecord('big', 1, [{ name: 'n', type: 'number' }]))], cp(1));
        const ops = Array.from({ length: 3000 }, (_, i) => put(itemRecord(`k${String(i).padStart(5, '0')}`, 'big', 1, { n: i % 1000 })));
        await rm.apply(ops, cp(2));
        const result = await page('big', 'n', 'asc', 2990, 10);
        const expected: string[] = [];
        for (let n = 0; n < 1000; n++) for (let k = 0; k < 3; k++) expected.push(`k${String(n + k * 1000).padStart(5, '0')}`);
        expect(ids(result.items)).toEqual(expected.slice(2990, 3000));
        expect(result.total).toBe(3000);
        const whole = await page('big', 'dataId', 'desc', 0, 5000);
        expect(whole.items).toHaveLength(3000);
        expect(whole.items[0]?.dataId).toBe('k02999');
      });
    });

    describe('keys and plan', () => {
      it('finds a key by hash and by id, follows updates, forgets it on delete for good', async () => {
        const k1 = keyRecord('key1', 1, 'first');
        expect(await rm.apply([{ kind: 'key.put', key: k1 }, { kind: 'key.put', key: keyRecord('key2', 1) }], cp(1))).toEqual([true, true]);
        expect(await rm.getKeyByHash('hash-key1')).toEqual(k1);
        expect(await rm.getKey('key1')).toEqual(k1);
        expect(await rm.getKeyByHash('hash-unknown')).toBeNull();
        const k1b = { ...keyRecord('key1', 2, 'renamed'), allowedDomains: ['*.example.com'] };
        expect(await rm.apply([{ kind: 'key.put', key: k1b }, { kind: 'key.put', key: k1 }], cp(2))).toEqual([true, false]);
        expect(await rm.getKeyByHash('hash-key1')).toEqual(k1b);
        expect((await rm.listKeys()).map((k) => k.keyId).sort()).toEqual(['key1', 'key2']);
        const deletion: ReadModelOp = { kind: 'key.delete', keyId: 'key1', keyHash: 'hash-key1', version: 3 };
        expect(await rm.apply([deletion], cp(3))).toEqual([true]);
        expect(await rm.getKeyByHash('hash-key1')).toBeNull();
        expect(await rm.getKey('key1')).toBeNull();
        expect(await rm.apply([{ kind: 'key.put', key: k1b }, deletion], cp(3))).toEqual([false, false]);
        expect(await rm.getKeyByHash('hash-key1')).toBeNull();
        expect((await rm.listKeys()).map((k) => k.keyId)).toEqual(['key2']);
      });

      it('stores the plan under its version guard', async () => {
        expect(await rm.getPlan()).toBeNull();
        const plan = { plan: 'pro' as const, monthlyQuota: 1000, version: 2 };
        expect(await rm.apply([{ kind: 'plan.put', plan }, { kind: 'plan.put', plan: { plan: 'free', monthlyQuota: null, version: 1 } }], cp(1))).toEqual([true, false]);
        expect(await rm.getPlan()).toEqual(plan);
      });
    });

    describe('checkpoints', () => {
      it('starts at 0, stores the position per projection, never moves back', async () => {
        expect(await rm.getCheckpoint('items')).toBe(0);
        await rm.apply([], { projection: 'items', position: 42 });
        await rm.apply([], { projection: 'keys', position: 7 });
        expect(await rm.getCheckpoint('items')).toBe(42);
        expect(await rm.getCheckpoint('keys')).toBe(7);
        await rm.apply([put(itemRecord('a', 'c', 1))], { projection: 'items', position: 40 });
        expect(await rm.getCheckpoint('items')).toBe(42);
        expect(await rm.getItem('a')).not.toBeNull();
      });
    });

    describe('usage', () => {
      it('adds request counts and keeps the latest use', async () => {
        const at1 = new Date(Date.UTC(2026, 2, 31, 23, 30));
        const at2 = new Date(Date.UTC(2026, 3, 1, 0, 10));
        await rm.recordUsage([{ keyId: 'k1', at: at2, count: 3 }, { keyId: 'k1', at: at1, count: 2 }, { keyId: 'k2', at: at1, count: 1 }]);
        await rm.recordUsage([{ keyId: 'k1', at: at1, count: 5 }]);
        expect(await rm.getUsage(['k1', 'k2', 'none'])).toEqual([
          { keyId: 'k1', requestCount: 10, lastUsedAt: at2.toISOString() },
          { keyId: 'k2', requestCount: 1, lastUsedAt: at1.toISOString() },
          { keyId: 'none', requestCount: 0, lastUsedAt: null },
        ]);
      });

      it('answers series per UTC hour, day and month, zero-filled', async () => {
        await rm.recordUsage([
          { keyId: 'k', at: new Date(Date.UTC(2026, 2, 31, 22, 59, 59)), count: 1 },
          { keyId: 'k', at: new Date(Date.UTC(2026, 2, 31, 23, 0)), count: 2 },
          { keyId: 'k', at: new Date(Date.UTC(2026, 3, 1, 1, 0)), count: 4 },
          { keyId: 'other', at: new Date(Date.UTC(2026, 3, 1, 1, 0)), count: 100 },
        ]);
        const from = new Date(Date.UTC(2026, 2, 31, 22, 30));
        const to = new Date(Date.UTC(2026, 3, 1, 1, 5));
        expect(await rm.getUsageSeries('k', 'hour', from, to)).toEqual([
          { bucket: '2026-03-31T22', count: 1 },
          { bucket: '2026-03-31T23', count: 2 },
          { bucket: '2026-04-01T00', count: 0 },
          { bucket: '2026-04-01T01', count: 4 },
        ]);
        expect(await rm.getUsageSeries('k', 'day', from, to)).toEqual([
          { bucket: '2026-03-31', count: 3 },
          { bucket: '2026-04-01', count: 4 },
        ]);
        expect(await rm.getUsageSeries('k', 'month', new Date(Date.UTC(2026, 1, 15)), to)).toEqual([
          { bucket: '2026-02', count: 0 },
          { bucket: '2026-03', count: 3 },
          { bucket: '2026-04', count: 4 },
        ]);
        expect(await rm.getUsageSeries('k', 'day', to, from)).toEqual([]);
      });
    });

    describe('leases and fencing', () => {
      it('gives the lease to one holder at a time, with strictly increasing tokens', async () => {
        const a = await rm.acquireLease('projector', 'a', 10_000);
        expect(a).toMatchObject({ name: 'projector', holder: 'a' });
        expect(await rm.acquireLease('projector', 'b', 10_000)).toBeNull();
        expect(await rm.acquireLease('other', 'b', 10_000)).not.toBeNull();
        expect(await rm.renewLease(a!, 10_000)).toBe(true);
        await rm.releaseLease(a!);
        const b = await rm.acquireLease('projector', 'b', 10_000);
        expect(b!.token).toBeGreaterThan(a!.token);
        expect(await rm.renewLease(a!, 10_000)).toBe(false);
        const b2 = await rm.acquireLease('projector', 'b', 10_000);
        expect(b2!.token).toBeGreaterThan(b!.token);
      });

      it('lets another holder take an expired lease, and the old holder cannot renew it', async () => {
        const a = await rm.acquireLease('projector', 'a', 100);
        await sleep(250);
        const b = await rm.acquireLease('projector', 'b', 10_000);
        expect(b!.token).toBeGreaterThan(a!.token);
        expect(await rm.renewLease(a!, 10_000)).toBe(false);
      });

      it('refuses writes with a stale lease (FencedError) and writes nothing', async () => {
        const a = await rm.acquireLease('projector', 'a', 10_000);
        expect(await rm.apply([put(itemRecord('x', 'c', 1))], cp(1), { lease: a! })).toEqual([true]);
        await rm.releaseLease(a!);
        const b = await rm.acquireLease('projector', 'b', 10_000);
        await expect(rm.apply([put(itemRecord('y', 'c', 1)), { kind: 'key.put', key: keyRecord('k', 1) }], cp(2), { lease: a! })).rejects.toBeInstanceOf(FencedError);
        expect(await rm.getItem('y')).toBeNull();
        expect(await rm.getKey('k')).toBeNull();
        expect(await rm.getCheckpoint('items')).toBe(1);
        expect(await rm.apply([put(itemRecord('y', 'c', 1))], cp(2), { lease: b! })).toEqual([true]);
        expect(await rm.getCheckpoint('items')).toBe(2);
      });
    });

    it('answers ping', async () => {
      await expect(rm.ping()).resolves.toBeUndefined();
    });

    describe('properties', () => {
      const dataIds = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'];
      const collectionOf = (dataId: string): string => (Number(dataId.slice(1)) % 2 === 0 ? 'even' : 'odd');
      const fieldSets: CollectionRecord['sortableFields'][] = [[], [{ name: 'n', type: 'number' }], [{ name: 'n', type: 'string' }, { name: 's', type: 'string' }], [{ name: 's', type: 'number' }, { name: 'n', type: 'number' }]];
      const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', 'B', 'é', '\u{1F600}', '\uFFFD', ''), fc.constant(null));
      const opArb: fc.Arbitrary<ReadModelOp> = fc.oneof(
        { weight: 5, arbitrary: fc.record({ dataId: fc.constantFrom(...dataIds), version: fc.integer({ min: 1, max: 6 }), n: fc.option(value), s: fc.option(value), created: fc.integer({ min: 0, max: 3 }), updated: fc.integer({ min: 0, max: 3 }) }).map(({ dataId, version, n, s, created, updated }) => {
          const data: Record<string, unknown> = {};
          if (n !== null) data.n = n;
          if (s !== null) data.s = s;
          return put(itemRecord(dataId, collectionOf(dataId), version, data, { created: created * 1000, updated: updated * 1000 }));
        }) },
        { weight: 2, arbitrary: fc.record({ dataId: fc.constantFrom(...dataIds), version: fc.integer({ min: 1, max: 6 }) }).map(({ dataId, version }) => del(dataId, collectionOf(dataId), version)) },
        { weight: 2, arbitrary: fc.record({ slug: fc.constantFrom('even', 'odd'), version: fc.integer({ min: 1, max: 6 }), fields: fc.constantFrom(...fieldSets) }).map(({ slug, version, fields }) => putCollection(collectionRecord(slug, version, fields))) },
        { weight: 1, arbitrary: fc.record({ slug: fc.constantFrom('even', 'odd'), version: fc.integer({ min: 1, max: 6 }) }).map(({ slug, version }): ReadModelOp => ({ kind: 'collection.delete', slug, version })) },
      );
      const scenario = fc.record({ ops: fc.array(opArb, { maxLength: 40 }), batchSize: fc.integer({ min: 1, max: 10 }), readEvery: fc.integer({ min: 1, max: 5 }) });

      const compare = async (naive: ReturnType<typeof createNaiveReadModel>) => {
        expect((await rm.getItems(dataIds)).map((i) => i && { dataId: i.dataId, version: i.version, data: i.data })).toEqual(
          dataIds.map((id) => naive.item(id)).map((i) => i && { dataId: i.dataId, version: i.version, data: i.data }),
        );
        for (const slug of ['even', 'odd']) {
          const collection = naive.collection(slug);
          expect(await rm.getCollection(slug)).toEqual(collection);
          expect(await rm.countItems(slug)).toBe(naive.count(slug));
          if (!collection) {
            expect(await rm.getCollectionPage(slug, { sort: 'dataId', order: 'asc', offset: 0, limit: 10 })).toBeNull();
            continue;
          }
          for (const sort of ['createdAt', 'updatedAt', 'dataId', ...collection.sortableFields.map((f) => f.name)]) {
            for (const order of ['asc', 'desc'] as const) {
              const expected = naive.sorted(slug, sort, order);
              const full = await page(slug, sort, order, 0, 100);
              expect({ sort, order, ids: ids(full.items), total: full.total }).toEqual({ sort, order, ids: expected, total: expected.length });
              const part = await page(slug, sort, order, 1, 2);
              expect(ids(part.items)).toEqual(expected.slice(1, 3));
            }
          }
        }
      };

      it('random op sequences, in random batches and replayed, read like the naive model', async () => {
        await fc.assert(
          fc.asyncProperty(scenario, async ({ ops, batchSize, readEvery }) => {
            rm = await factory();
            const naive = createNaiveReadModel();
            for (let i = 0, n = 0; i < ops.length; i += batchSize, n++) {
              const batch = ops.slice(i, i + batchSize);
              const expected = batch.map((op) => naive.apply(op));
              expect(await rm.apply(batch, cp(i + batch.length))).toEqual(expected);
              // Reads between writes exercise incrementally maintained indexes.
              if (n % readEvery === 0) await compare(naive);
            }
            await compare(naive);
            // A replay of everything changes nothing.
            expect(await rm.apply(ops, cp(ops.length))).toEqual(ops.map(() => false));
            await compare(naive);
            await options.teardown?.(rm);
          }),
          { numRuns },
        );
      });
    });
  });
};
