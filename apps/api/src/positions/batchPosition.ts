import type { ItemRecord, ReadModel } from '@pubstream/read-model';

/** Reads on a Redis Cluster before answering with the largest found position instead. */
export const BATCH_POSITION_ATTEMPTS = 3;

const maxPosition = (items: readonly (ItemRecord | null)[]): number => items.reduce((max, item) => (item && item.position > max ? item.position : max), 0);

/** Items read after C = appliedPosition(), all at or below C: the read is exactly the state at C. */
const readAtApplied = async (readModel: Pick<ReadModel, 'getItems' | 'appliedPosition'>, dataIds: readonly string[]) => {
  const applied = await readModel.appliedPosition();
  const items = await readModel.getItems(dataIds);
  return { items, position: applied, exact: items.every((item) => item === null || item.position <= applied) };
};

/**
 * A batch's items and its X-Position (docs/public-api.md, X-Position). Where getItems reads at one
 * instant (one Redis, memory), the largest position of the found records: no asked item changed
 * between it and the read. On a Redis Cluster each item is its own read: read C =
 * appliedPosition() first, then the items; when every found record is at or below C the answer
 * is the state at C. Else a batch was being applied: try again (at most 3 reads), then answer the
 * largest found position (the documented fallback). A batch that found nothing also uses C.
 */
export const readBatchWithPosition = async (
  readModel: Pick<ReadModel, 'getItems' | 'appliedPosition' | 'atomicBatches'>,
  dataIds: readonly string[],
): Promise<{ items: (ItemRecord | null)[]; position: number }> => {
  if (readModel.atomicBatches) {
    const items = await readModel.getItems(dataIds);
    if (items.some((item) => item !== null)) return { items, position: maxPosition(items) };
  }
  let read = await readAtApplied(readModel, dataIds);
  for (let attempt = 1; !read.exact && attempt < BATCH_POSITION_ATTEMPTS; attempt++) read = await readAtApplied(readModel, dataIds);
  return { items: read.items, position: read.exact ? read.position : maxPosition(read.items) };
};
