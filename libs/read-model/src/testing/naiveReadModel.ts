import type { ReadModelOp } from '../projectionStore.js';
import type { SortOrder } from '../readModel.js';
import type { CollectionRecord, ItemRecord } from '../records.js';

/**
 * The simplest model of the port's write and sort rules, for property tests: plain maps, a full
 * sort per query, and its own comparison code (UTF-8 bytes for strings), independent of the adapters.
 */
export interface NaiveReadModel {
  apply(op: ReadModelOp): boolean;
  item(dataId: string): ItemRecord | null;
  collection(slug: string): CollectionRecord | null;
  count(slug: string): number;
  /** All dataIds of the collection in page order. */
  sorted(slug: string, sort: string, order: SortOrder): string[];
}

const valueFor = (item: ItemRecord, sort: string, type: 'number' | 'string' | undefined): number | string | undefined => {
  if (sort === 'createdAt' || sort === 'updatedAt') {
    const ms = new Date(item[sort]).getTime();
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (sort === 'dataId') return item.dataId;
  const value = item.data[sort];
  if (type === 'number' && typeof value === 'number') return value;
  if (type === 'string' && typeof value === 'string') return value;
  return undefined;
};

const compareValues = (a: number | string, b: number | string): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : Buffer.compare(Buffer.from(String(a), 'utf8'), Buffer.from(String(b), 'utf8'));

/** Present values in `order` (ties by id the same way), missing values last. */
const sortRows = (rows: { id: string; value: number | string | undefined }[], order: SortOrder): string[] => {
  const sign = order === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    if (a.value === undefined && b.value !== undefined) return 1;
    if (b.value === undefined && a.value !== undefined) return -1;
    const byValue = a.value !== undefined && b.value !== undefined ? compareValues(a.value, b.value) : 0;
    return sign * (byValue !== 0 ? byValue : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
  return rows.map((r) => r.id);
};

export const createNaiveReadModel = (): NaiveReadModel => {
  const versions = new Map<string, number>();
  const items = new Map<string, ItemRecord>();
  const collections = new Map<string, CollectionRecord>();
  const members = new Map<string, Set<string>>();

  const newer = (id: string, version: number): boolean => {
    if (version <= (versions.get(id) ?? -Infinity)) return false;
    versions.set(id, version);
    return true;
  };
  const membersOf = (slug: string): Set<string> => {
    const set = members.get(slug) ?? new Set<string>();
    members.set(slug, set);
    return set;
  };

  return {
    apply(op) {
      switch (op.kind) {
        case 'item.put':
          if (!newer(`i:${op.item.dataId}`, op.item.version)) return false;
          items.set(op.item.dataId, op.item);
          membersOf(op.item.collectionId).add(op.item.dataId);
          return true;
        case 'item.delete':
          if (!newer(`i:${op.dataId}`, op.version)) return false;
          items.delete(op.dataId);
          membersOf(op.collectionId).delete(op.dataId);
          return true;
        case 'collection.put':
          if (!newer(`c:${op.collection.slug}`, op.collection.version)) return false;
          collections.set(op.collection.slug, op.collection);
          return true;
        case 'collection.delete':
          if (!newer(`c:${op.slug}`, op.version)) return false;
          collections.delete(op.slug);
          members.delete(op.slug);
          return true;
        default:
          return false;
      }
    },
    item: (dataId) => items.get(dataId) ?? null,
    collection: (slug) => collections.get(slug) ?? null,
    count: (slug) => membersOf(slug).size,
    sorted(slug, sort, order) {
      const type = collections.get(slug)?.sortableFields.find((f) => f.name === sort)?.type;
      return sortRows([...membersOf(slug)].map((id) => ({ id, value: valueFor(items.get(id) as ItemRecord, sort, type) })), order);
    },
  };
};
