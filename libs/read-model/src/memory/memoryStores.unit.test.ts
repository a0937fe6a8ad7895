import { describe, expect, it } from 'vitest';
import { createMemoryStores, createMemoryStoresState, type MemoryStoresState } from './memoryStores.js';
import { collectionRecord, itemRecord, testChangeHistoryContract, testStoresContract } from '../testing/index.js';

/** Empties the stores' state as a lost Redis would be; it takes a moment, as a real wipe does. */
const wipe = async (state: MemoryStoresState): Promise<void> => {
  for (const part of [state.records, state.projection]) for (const value of Object.values(part)) if (value instanceof Map) value.clear();
  state.records.plan = null;
  await new Promise((resolve) => setTimeout(resolve, 2));
};

let state = createMemoryStoresState();
testStoresContract('memory', async () => createMemoryStores({ state: (state = createMemoryStoresState()) }), { wipe: () => wipe(state) });

testChangeHistoryContract('memory', async (now) => createMemoryStores({ now }));

describe('memory stores', () => {
  it('expire leases by the injected clock', async () => {
    let now = 0;
    const { projections } = createMemoryStores({ now: () => new Date(now) });
    const a = await projections.acquireLease('p', 'a', 1000);
    expect(await projections.acquireLease('p', 'b', 1000)).toBeNull();
    now = 1001;
    const b = await projections.acquireLease('p', 'b', 1000);
    expect(b!.token).toBeGreaterThan(a!.token);
  });

  it('keep pages right while writes and reads interleave on a large collection', async () => {
    const { projections, readModel } = createMemoryStores();
    await projections.apply([{ kind: 'collection.put', collection: collectionRecord('big', 1, [{ name: 'n', type: 'number' }]) }], { projection: 'p', position: 1 });
    const ops = Array.from({ length: 20_000 }, (_, i) => ({ kind: 'item.put' as const, item: itemRecord(`k${i}`, 'big', 1, { n: (i * 7919) % 20_000 }) }));
    await projections.apply(ops, { projection: 'p', position: 2 });
    const first = await readModel.getCollectionPage('big', { sort: 'n', order: 'desc', offset: 0, limit: 3 });
    expect(first!.items.map((i) => i.data.n)).toEqual([19_999, 19_998, 19_997]);
    // A few writes after a read go through the incremental path.
    for (let v = 2; v < 6; v++) {
      await projections.apply([{ kind: 'item.put', item: itemRecord(`k${v}`, 'big', v, { n: 50_000 + v }) }], { projection: 'p', position: 2 + v });
      const page = await readModel.getCollectionPage('big', { sort: 'n', order: 'desc', offset: 0, limit: 1 });
      expect(page!.items[0]!.data.n).toBe(50_000 + v);
    }
    const deep = await readModel.getCollectionPage('big', { sort: 'n', order: 'asc', offset: 19_990, limit: 50 });
    expect(deep!.items).toHaveLength(10);
    expect(deep!.total).toBe(20_000);
  });
});
