import { beforeEach, describe, expect, it } from 'vitest';
import type { SortOrder } from '../readModel.js';
import { collectionRecord, cp, del, ids, itemRecord, pageOf, put, putCollection, type ReadModelSubject } from './contractFixtures.js';

const FIELDS = [
  { name: 'price', type: 'number' as const },
  { name: 'title', type: 'string' as const },
];

/** A shop whose items cover ties, missing values, mistyped values and non-ASCII strings. */
const seed = async (projections: ReadModelSubject['projections']): Promise<void> => {
  await projections.apply(
    [
      putCollection(collectionRecord('shop', 1, FIELDS)),
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

/** Expected page order of the seeded shop per sort and order. */
const CASES: [string, SortOrder, string[]][] = [
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

/** Every sort order of the seeded shop, and paging by offset and limit. */
const describeSortOrders = (subject: () => ReadModelSubject): void => {
  describe('collection pages', () => {
    let s: ReadModelSubject;
    beforeEach(() => {
      s = subject();
    });
    const page = (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => pageOf(s.readModel, slug, sort, order, offset, limit);

    for (const [sort, order, expected] of CASES) {
      it(`sorts by ${sort} ${order}: ties by dataId in the same direction, missing or mistyped values last`, async () => {
        await seed(s.projections);
        const result = await page('shop', sort, order);
        expect(ids(result.items)).toEqual(expected);
        expect(result.total).toBe(7);
      });
    }

    it('pages by offset and limit; a page past the end is empty with the true total', async () => {
      await seed(s.projections);
      const pages = [];
      for (let offset = 0; offset < 9; offset += 2) pages.push(ids((await page('shop', 'price', 'desc', offset, 2)).items));
      expect(pages).toEqual([['f', 'b'], ['a', 'c'], ['g', 'e'], ['d'], []]);
      const past = await page('shop', 'title', 'asc', 1000, 10);
      expect({ items: past.items, total: past.total }).toEqual({ items: [], total: 7 });
      expect((await page('shop', 'dataId', 'asc', 0, 0)).items).toEqual([]);
    });
  });
};

/** Pages follow updates, deletes and changed declarations. */
const describePagesAfterWrites = (subject: () => ReadModelSubject): void => {
  describe('collection pages after writes', () => {
    let s: ReadModelSubject;
    beforeEach(() => {
      s = subject();
    });
    const page = (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => pageOf(s.readModel, slug, sort, order, offset, limit);

    it('returns whole records in pages, and follows updates and deletes', async () => {
      await seed(s.projections);
      await page('shop', 'price', 'asc');
      await s.projections.apply([put(itemRecord('g', 'shop', 2, { price: -100 }, { created: 6000, updated: 11000 })), del('c', 'shop', 2), put(itemRecord('a', 'shop', 2, { title: 'apple' }, { created: 1000, updated: 12000 }))], cp(2));
      const result = await page('shop', 'price', 'asc');
      expect(ids(result.items)).toEqual(['g', 'b', 'f', 'a', 'd', 'e']);
      expect(result.items[0]).toEqual(itemRecord('g', 'shop', 2, { price: -100 }, { created: 6000, updated: 11000 }));
      expect(result.total).toBe(6);
      expect(ids((await page('shop', 'updatedAt', 'desc', 0, 2)).items)).toEqual(['a', 'g']);
    });

    it('sorts by a field declared after the items were written, and forgets undeclared ones', async () => {
      await seed(s.projections);
      await s.projections.apply([putCollection(collectionRecord('shop', 2, [{ name: 'price', type: 'string' }, { name: 'rank', type: 'number' }]))], cp(2));
      expect(ids((await page('shop', 'price', 'asc')).items)).toEqual(['d', 'a', 'b', 'c', 'e', 'f', 'g']);
      expect(ids((await page('shop', 'rank', 'asc')).items)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      await expect(s.readModel.getCollectionPage('shop', { sort: 'title', order: 'asc', offset: 0, limit: 10 })).rejects.toThrow();
    });
  });
};

/** Code point order of strings, and pages deep into a large collection. */
const describeStringOrderAndDepth = (subject: () => ReadModelSubject): void => {
  describe('collection pages: string order and depth', () => {
    let s: ReadModelSubject;
    beforeEach(() => {
      s = subject();
    });
    const page = (slug: string, sort: string, order: SortOrder, offset = 0, limit = 100) => pageOf(s.readModel, slug, sort, order, offset, limit);

    it('orders strings by code point, including accents, emoji and the private use area', async () => {
      await s.projections.apply([putCollection(collectionRecord('s', 1, [{ name: 't', type: 'string' }]))], cp(1));
      const values = ['b', 'a', 'ab', '', 'B', 'é', '\u{1F600}', '\uFFFD', 'a\u0000b', 'a\u0000'];
      await s.projections.apply(values.map((t, i) => put(itemRecord(`x${i}`, 's', 1, { t }))), cp(2));
      const expected = values
        .map((t, i) => ({ t, id: `x${i}` }))
        .sort((p, q) => Buffer.compare(Buffer.from(p.t), Buffer.from(q.t)))
        .map((e) => e.id);
      expect(ids((await page('s', 't', 'asc')).items)).toEqual(expected);
      expect(ids((await page('s', 't', 'desc')).items)).toEqual([...expected].reverse());
    });

    it('pages deep into a large collection', async () => {
      await s.projections.apply([putCollection(collectionRecord('big', 1, [{ name: 'n', type: 'number' }]))], cp(1));
      const ops = Array.from({ length: 3000 }, (_, i) => put(itemRecord(`k${String(i).padStart(5, '0')}`, 'big', 1, { n: i % 1000 })));
      await s.projections.apply(ops, cp(2));
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
};

/** Sort orders and pages of the ReadModel contract (docs/read-models.md, sort orders). */
export const describeCollectionPages = (subject: () => ReadModelSubject): void => {
  describeSortOrders(subject);
  describePagesAfterWrites(subject);
  describeStringOrderAndDepth(subject);
};
