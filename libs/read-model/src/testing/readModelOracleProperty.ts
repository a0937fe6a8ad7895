import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ReadModelOp } from '../projectionStore.js';
import type { ReadModel } from '../readModel.js';
import type { CollectionRecord } from '../records.js';
import { collectionRecord, cp, del, ids, itemRecord, pageOf, put, putCollection, type ReadModelContractOptions, type ReadModelSubject } from './contractFixtures.js';
import { createNaiveReadModel, type NaiveReadModel } from './naiveReadModel.js';

const dataIds = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5'];
const collectionOf = (dataId: string): string => (Number(dataId.slice(1)) % 2 === 0 ? 'even' : 'odd');
const fieldSets: CollectionRecord['sortableFields'][] = [[], [{ name: 'n', type: 'number' }], [{ name: 'n', type: 'string' }, { name: 's', type: 'string' }], [{ name: 's', type: 'number' }, { name: 'n', type: 'number' }]];
const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b', 'B', 'é', '\u{1F600}', '\uFFFD', ''), fc.constant(null));

const itemPut = fc
  .record({ dataId: fc.constantFrom(...dataIds), version: fc.integer({ min: 1, max: 6 }), n: fc.option(value), s: fc.option(value), created: fc.integer({ min: 0, max: 3 }), updated: fc.integer({ min: 0, max: 3 }) })
  .map(({ dataId, version, n, s, created, updated }) => {
    const data: Record<string, unknown> = {};
    if (n !== null) data.n = n;
    if (s !== null) data.s = s;
    return put(itemRecord(dataId, collectionOf(dataId), version, data, { created: created * 1000, updated: updated * 1000 }));
  });
const opArb: fc.Arbitrary<ReadModelOp> = fc.oneof(
  { weight: 5, arbitrary: itemPut },
  { weight: 2, arbitrary: fc.record({ dataId: fc.constantFrom(...dataIds), version: fc.integer({ min: 1, max: 6 }) }).map(({ dataId, version }) => del(dataId, collectionOf(dataId), version)) },
  { weight: 2, arbitrary: fc.record({ slug: fc.constantFrom('even', 'odd'), version: fc.integer({ min: 1, max: 6 }), fields: fc.constantFrom(...fieldSets) }).map(({ slug, version, fields }) => putCollection(collectionRecord(slug, version, fields))) },
  { weight: 1, arbitrary: fc.record({ slug: fc.constantFrom('even', 'odd'), version: fc.integer({ min: 1, max: 6 }) }).map(({ slug, version }): ReadModelOp => ({ kind: 'collection.delete', slug, version, position: version })) },
);
const scenario = fc.record({ ops: fc.array(opArb, { maxLength: 40 }), batchSize: fc.integer({ min: 1, max: 10 }), readEvery: fc.integer({ min: 1, max: 5 }) });

const summary = (item: { dataId: string; version: number; data: unknown } | null) => item && { dataId: item.dataId, version: item.version, data: item.data };

/** Every item, count, and every sort order of every page, against the naive model. */
const compare = async (rm: ReadModel, naive: NaiveReadModel): Promise<void> => {
  expect((await rm.getItems(dataIds)).map(summary)).toEqual(dataIds.map((id) => summary(naive.item(id))));
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
        const full = await pageOf(rm, slug, sort, order, 0, 100);
        expect({ sort, order, ids: ids(full.items), total: full.total }).toEqual({ sort, order, ids: expected, total: expected.length });
        const part = await pageOf(rm, slug, sort, order, 1, 2);
        expect(ids(part.items)).toEqual(expected.slice(1, 3));
      }
    }
  }
};

/**
 * The oracle property of the ReadModel contract: random op sequences applied through the
 * projection store in random batches, read between batches, then replayed, read exactly like
 * `createNaiveReadModel()`.
 */
export const describeReadModelOracle = <S extends ReadModelSubject>(factory: () => Promise<S>, options: ReadModelContractOptions<S>): void => {
  describe('properties', () => {
    it('random op sequences, in random batches and replayed, read like the naive model', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ ops, batchSize, readEvery }) => {
          const s = await factory();
          const naive = createNaiveReadModel();
          for (let i = 0, n = 0; i < ops.length; i += batchSize, n++) {
            const batch = ops.slice(i, i + batchSize);
            const expected = batch.map((op) => naive.apply(op));
            expect(await s.projections.apply(batch, cp(i + batch.length))).toEqual(expected);
            // Reads between writes exercise incrementally maintained indexes.
            if (n % readEvery === 0) await compare(s.readModel, naive);
          }
          await compare(s.readModel, naive);
          // A replay of everything changes nothing.
          expect(await s.projections.apply(ops, cp(ops.length))).toEqual(ops.map(() => false));
          await compare(s.readModel, naive);
          await options.teardown?.(s);
        }),
        { numRuns: options.numRuns ?? 100 },
      );
    });
  });
};
