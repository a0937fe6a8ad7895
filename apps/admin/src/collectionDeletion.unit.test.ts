import { NotFoundError } from '@pubstream/domain';
import type { ItemRecord, PageResult } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createCollectionDeletion } from './collectionDeletion.js';
import type { ItemWriteEntry, ItemWriteOutcome } from './itemWriter.js';

const item = (dataId: string): ItemRecord => ({ id: dataId, dataId, collectionId: 'books', data: {}, createdAt: '', updatedAt: '', version: 0, position: 0 });
const pageOf = (dataIds: string[], offset: number, limit: number): PageResult => ({ items: dataIds.slice(offset, offset + limit).map(item), total: dataIds.length, position: 0 });

const deleted = (position: number): ItemWriteOutcome => ({ ok: true, change: 'deleted', position, state: { status: 'deleted', dataId: 'a', collection: 'books' } });

const setup = (options: { dataIds: string[]; caughtUp?: boolean; outcome?: (entry: ItemWriteEntry, index: number) => ItemWriteOutcome }) => {
  const written: ItemWriteEntry[][] = [];
  const waitedFor: (number | null)[] = [];
  const { deleteItemsOf } = createCollectionDeletion({
    eventStore: { headPosition: async () => 1_000 },
    readModel: { getCollectionPage: async (_slug, query) => pageOf(options.dataIds, query.offset ?? 0, query.limit ?? 20) },
    readYourWrites: async (position) => (waitedFor.push(position), options.caughtUp ?? true),
    writeItems: async (entries) => {
      written.push([...entries]);
      return entries.map((entry, index) => options.outcome?.(entry, index) ?? deleted(2_000 + index));
    },
  });
  return { deleteItemsOf, written, waitedFor };
};

describe('collectionDeletion', () => {
  it('deletes every item of the collection, listed once the read model has the whole log, in batches of 500', async () => {
    const dataIds = Array.from({ length: 1_200 }, (_, index) => `item-${String(index).padStart(4, '0')}`);
    const { deleteItemsOf, written, waitedFor } = setup({ dataIds });
    expect(await deleteItemsOf('books', 'key')).toEqual({ deletedItems: 1_200, position: 2_499 });
    expect(waitedFor).toEqual([1_000]);
    expect(written.map((batch) => batch.length)).toEqual([500, 500, 200]);
    expect(written[0]?.[0]).toEqual({ command: { type: 'DeleteItem', dataId: 'item-0000', collection: 'books' }, idempotencyKey: 'key' });
  });

  it('deletes nothing when the read model lags behind the log (503)', async () => {
    const { deleteItemsOf, written } = setup({ dataIds: ['a'], caughtUp: false });
    await expect(deleteItemsOf('books', undefined)).rejects.toMatchObject({ status: 503 });
    expect(written).toEqual([]);
  });

  it('an item deleted meanwhile is fine; any other failure stops the deletion', async () => {
    const gone = setup({ dataIds: ['a', 'b'], outcome: (_entry, index) => (index === 0 ? { ok: false, error: new NotFoundError() } : deleted(7)) });
    expect(await gone.deleteItemsOf('books', undefined)).toEqual({ deletedItems: 1, position: 7 });
    const broken = setup({ dataIds: ['a'], outcome: () => ({ ok: false, error: new Error('disk full') }) });
    await expect(broken.deleteItemsOf('books', undefined)).rejects.toThrow('disk full');
  });
});
