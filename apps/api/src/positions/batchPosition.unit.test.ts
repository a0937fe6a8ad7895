import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '@pubstream/read-model';
import { readBatchWithPosition } from './batchPosition.js';

const item = (dataId: string, position: number): ItemRecord => ({ id: dataId, dataId, collectionId: 'c', data: {}, createdAt: '', updatedAt: '', version: position, position });

/** A read model whose successive reads answer the given states: [applied position, items]. */
const reads = (atomicBatches: boolean, states: [number, (ItemRecord | null)[]][]) => {
  let applied = 0;
  let items = 0;
  return {
    atomicBatches,
    calls: () => items,
    appliedPosition: async () => (states[Math.min(applied++, states.length - 1)] as [number, unknown])[0],
    getItems: async () => (states[Math.min(items++, states.length - 1)] as [number, (ItemRecord | null)[]])[1],
  };
};

describe('a batch read and its X-Position', () => {
  it('one Redis / memory (atomic reads): the largest position of the found records, one read', async () => {
    const model = reads(true, [[99, [item('a', 4), null, item('b', 7)]]]);
    expect((await readBatchWithPosition(model, ['a', 'x', 'b'])).position).toBe(7);
    expect(model.calls()).toBe(1);
  });

  it('Redis Cluster: the applied position read first when every found record is at or below it', async () => {
    expect((await readBatchWithPosition(reads(false, [[10, [item('a', 4), item('b', 10)]]]), ['a', 'b'])).position).toBe(10);
  });

  it('Redis Cluster: a record newer than the applied position means a batch was landing: read again', async () => {
    const model = reads(false, [
      [10, [item('a', 11), item('b', 10)]],
      [12, [item('a', 11), item('b', 12)]],
    ]);
    expect(await readBatchWithPosition(model, ['a', 'b'])).toEqual({ items: [item('a', 11), item('b', 12)], position: 12 });
    expect(model.calls()).toBe(2);
  });

  it('Redis Cluster: after three tries, the largest found position (the documented fallback)', async () => {
    const model = reads(false, [[10, [item('a', 11), null]], [11, [item('a', 12), null]], [12, [item('a', 14), null]]]);
    expect((await readBatchWithPosition(model, ['a', 'x'])).position).toBe(14);
    expect(model.calls()).toBe(3);
  });

  it('a batch that found nothing answers the applied position read before it', async () => {
    expect((await readBatchWithPosition(reads(true, [[42, [null, null]]]), ['x', 'y'])).position).toBe(42);
  });
});
