import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SortOrder } from '../readModel.js';
import { collectionRecord, cp, del, ids, itemRecord, pageOf, put, putCollection, type ReadModelContractOptions, type ReadModelSubject } from './contractFixtures.js';
import { describeReadModelOracle } from './readModelOracleProperty.js';
import { describeCollectionPages } from './readModelPagesContract.js';

const describeItemsAndGuards = (subject: () => ReadModelSubject): void => {
  describe('items and version guards', () => {
    let s: ReadModelSubject;
    beforeEach(() => {
      s = subject();
    });
    const page = (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => pageOf(s.readModel, slug, sort, order, offset, limit);

    it('stores an item and reads it back by dataId', async () => {
      const item = itemRecord('a1', 'c', 1, { title: 'Hello', n: 1, nested: { x: [1, 2] } });
      expect(await s.projections.apply([put(item)], cp(1))).toEqual([true]);
      expect(await s.readModel.getItem('a1')).toEqual(item);
      expect(await s.readModel.getItem('nope')).toBeNull();
    });

    it('ignores a put whose version is not newer, and says so', async () => {
      await s.projections.apply([put(itemRecord('a1', 'c', 2, { v: 2 }))], cp(1));
      expect(await s.projections.apply([put(itemRecord('a1', 'c', 1, { v: 1 })), put(itemRecord('a1', 'c', 2, { v: 'same' }))], cp(2))).toEqual([false, false]);
      expect((await s.readModel.getItem('a1'))?.data).toEqual({ v: 2 });
      expect(await s.projections.apply([put(itemRecord('a1', 'c', 3, { v: 3 }))], cp(3))).toEqual([true]);
      expect((await s.readModel.getItem('a1'))?.data).toEqual({ v: 3 });
    });

    it('applying the same batch twice changes nothing the second time', async () => {
      const batch = [
        putCollection(collectionRecord('c', 1, [{ name: 'n', type: 'number' }])),
        put(itemRecord('a1', 'c', 1, { n: 1 })),
        put(itemRecord('a2', 'c', 1, { n: 2 })),
        put(itemRecord('a1', 'c', 2, { n: 3 })),
        del('a2', 'c', 2),
      ];
      expect(await s.projections.apply(batch, cp(5))).toEqual([true, true, true, true, true]);
      const before = { item: await s.readModel.getItem('a1'), count: await s.readModel.countItems('c'), page: await page('c', 'n', 'asc') };
      expect(await s.projections.apply(batch, cp(5))).toEqual([false, false, false, false, false]);
      expect({ item: await s.readModel.getItem('a1'), count: await s.readModel.countItems('c'), page: await page('c', 'n', 'asc') }).toEqual(before);
    });

    it('keeps a tombstone: a replayed older put never resurrects a deleted item', async () => {
      await s.projections.apply([putCollection(collectionRecord('c', 1)), put(itemRecord('a1', 'c', 1))], cp(1));
      expect(await s.projections.apply([del('a1', 'c', 2)], cp(2))).toEqual([true]);
      expect(await s.readModel.getItem('a1')).toBeNull();
      expect(await s.projections.apply([put(itemRecord('a1', 'c', 1)), del('a1', 'c', 2)], cp(2))).toEqual([false, false]);
      expect(await s.readModel.getItem('a1')).toBeNull();
      expect(await s.readModel.countItems('c')).toBe(0);
      expect((await page('c', 'dataId', 'asc')).items).toEqual([]);
      // A newer version (the item created again) is a real change.
      expect(await s.projections.apply([put(itemRecord('a1', 'c', 3, { back: true }))], cp(3))).toEqual([true]);
      expect((await s.readModel.getItem('a1'))?.data).toEqual({ back: true });
      expect(await s.readModel.countItems('c')).toBe(1);
    });

    it('getItems answers in request order and length, with null where missing', async () => {
      await s.projections.apply([put(itemRecord('a1', 'c', 1)), put(itemRecord('a2', 'd', 1)), put(itemRecord('a3', 'c', 1)), del('a3', 'c', 2)], cp(1));
      const got = await s.readModel.getItems(['a2', 'missing', 'a1', 'a3', 'a2']);
      expect(got.map((i) => i?.dataId ?? null)).toEqual(['a2', null, 'a1', null, 'a2']);
      expect(await s.readModel.getItems([])).toEqual([]);
    });
  });
};

const describeCollectionsAndCounts = (subject: () => ReadModelSubject): void => {
  describe('collections and counts', () => {
    let s: ReadModelSubject;
    beforeEach(() => {
      s = subject();
    });
    const page = (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => pageOf(s.readModel, slug, sort, order, offset, limit);

    it('counts items: a new dataId increments, an update does not, a delete decrements', async () => {
      await s.projections.apply([putCollection(collectionRecord('c', 1)), put(itemRecord('a1', 'c', 1)), put(itemRecord('a2', 'c', 1))], cp(1));
      expect(await s.readModel.countItems('c')).toBe(2);
      await s.projections.apply([put(itemRecord('a1', 'c', 2, { x: 1 }))], cp(2));
      expect(await s.readModel.countItems('c')).toBe(2);
      await s.projections.apply([del('a1', 'c', 3), del('never-existed', 'c', 1)], cp(3));
      expect(await s.readModel.countItems('c')).toBe(1);
      expect(await s.readModel.countItems('unknown')).toBe(0);
      expect((await page('c', 'dataId', 'asc')).total).toBe(1);
    });

    it('stores, updates and lists collection records under their version guard', async () => {
      const c1 = collectionRecord('books', 1, [{ name: 'year', type: 'number' }]);
      const c2 = { ...collectionRecord('books', 2, [{ name: 'title', type: 'string' }]), name: 'Books' };
      expect(await s.projections.apply([putCollection(c1), putCollection(c2), putCollection(c1), putCollection(collectionRecord('art', 1))], cp(1))).toEqual([true, true, false, true]);
      expect(await s.readModel.getCollection('books')).toEqual(c2);
      expect(await s.readModel.getCollection('nope')).toBeNull();
      expect((await s.readModel.listCollections()).map((c) => c.slug).sort()).toEqual(['art', 'books']);
    });

    it('deleting a collection removes it, its page and its count; replays do not bring it back', async () => {
      const c = collectionRecord('c', 1, [{ name: 'n', type: 'number' }]);
      const batch = [putCollection(c), put(itemRecord('a1', 'c', 1, { n: 1 })), put(itemRecord('a2', 'c', 1, { n: 2 }))];
      await s.projections.apply(batch, cp(3));
      await page('c', 'n', 'asc');
      expect(await s.projections.apply([{ kind: 'collection.delete', slug: 'c', version: 2, position: 2 }], cp(4))).toEqual([true]);
      expect(await s.readModel.getCollection('c')).toBeNull();
      expect(await s.readModel.getCollectionPage('c', { sort: 'n', order: 'asc', offset: 0, limit: 10 })).toBeNull();
      expect(await s.readModel.countItems('c')).toBe(0);
      expect(await s.readModel.listCollections()).toEqual([]);
      expect(await s.projections.apply([...batch, { kind: 'collection.delete', slug: 'c', version: 2, position: 2 }], cp(4))).toEqual([false, false, false, false]);
      expect(await s.readModel.getCollection('c')).toBeNull();
      expect(await s.readModel.countItems('c')).toBe(0);
      // Created again (a newer version): an empty collection, with the new items only.
      await s.projections.apply([putCollection(collectionRecord('c', 3, [{ name: 'n', type: 'number' }])), put(itemRecord('a3', 'c', 1, { n: 0 }))], cp(5));
      const again = await page('c', 'n', 'asc');
      expect({ ids: ids(again.items), total: again.total }).toEqual({ ids: ['a3'], total: 1 });
    });
  });
};

/**
 * The behaviour every ReadModel adapter must show (docs/read-models.md): version guards and
 * replays, tombstones, counts, sort orders and pages, and the oracle property against the naive
 * model. The records are written through the same adapter's projection store. `factory` returns
 * fresh, empty stores for each test.
 */
export const testReadModelContract = <S extends ReadModelSubject>(name: string, factory: () => Promise<S>, options: ReadModelContractOptions<S> = {}): void => {
  describe(`read model contract: ${name}`, () => {
    let s: S;
    beforeEach(async () => {
      s = await factory();
    });
    afterEach(async () => {
      await options.teardown?.(s);
    });

    describeItemsAndGuards(() => s);
    describeCollectionsAndCounts(() => s);
    describeCollectionPages(() => s);
    describeReadModelOracle(factory, options);
  });
};
