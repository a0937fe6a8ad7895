import { ValidationError } from '@pubstream/domain';
import { APPLIED_CHECKPOINT, checkPageQuery, type ReadModel } from '../readModel.js';
import type { ItemRecord } from '../records.js';
import { sortedIndexOf, type MemoryRecords } from './memoryRecords.js';
import { sortKindOf } from './sortKeys.js';

/**
 * The public reads over the memory records. A page is a slice of the collection's sorted index
 * for the field (built on first use, then kept up to date by every write).
 */
export const createMemoryReadModel = (records: MemoryRecords, checkpoints: ReadonlyMap<string, number>): ReadModel => ({
  atomicBatches: true,
  async getItem(dataId) {
    return records.items.get(dataId) ?? null;
  },
  async getItems(dataIds) {
    return dataIds.map((id) => records.items.get(id) ?? null);
  },
  async getCollection(slug) {
    return records.collections.get(slug) ?? null;
  },
  async listCollections() {
    return [...records.collections.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  },
  async getCollectionPage(slug, query) {
    checkPageQuery(query);
    const collection = records.collections.get(slug);
    if (!collection) return null;
    const kind = sortKindOf(collection, query.sort);
    if (!kind) throw new ValidationError(`Unknown sort field "${query.sort}"`);
    const ids = sortedIndexOf(records, slug, query.sort, kind).page(query.order, query.offset, query.limit);
    const total = records.memberships.get(slug)?.members.size ?? 0;
    return { items: ids.map((id) => records.items.get(id) as ItemRecord), total, position: records.lastChange.get(slug) ?? collection.position };
  },
  async countItems(slug) {
    return records.memberships.get(slug)?.members.size ?? 0;
  },
  async isCaughtUp() {
    return records.caughtUp;
  },
  async appliedPosition() {
    return checkpoints.get(APPLIED_CHECKPOINT) ?? 0;
  },
});
