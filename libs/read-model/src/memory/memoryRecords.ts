import type { CollectionRecord, ItemRecord, KeyRecord, PlanRecord } from '../records.js';
import { createSortedIndex, type SortedIndex } from './sortedIndex.js';
import { sortKeyOf, type SortKind } from './sortKeys.js';

/** A collection's members and the sort orders built over them so far. */
export interface Membership {
  readonly members: Set<string>;
  /** Built on the first page query that sorts by the field, then maintained by every write. */
  readonly indexes: Map<string, { kind: SortKind; index: SortedIndex }>;
}

/**
 * The records of the memory adapter: the one state its projection store writes and its read
 * model and key store read. Versions are kept apart from the records: they outlive a delete
 * (the tombstone that keeps a replay from resurrecting it).
 */
export interface MemoryRecords {
  readonly items: Map<string, ItemRecord>;
  readonly itemVersions: Map<string, number>;
  readonly collections: Map<string, CollectionRecord>;
  readonly collectionVersions: Map<string, number>;
  readonly memberships: Map<string, Membership>;
  /** Per collection: the position of its latest change (its record or an item); kept after a delete. */
  readonly lastChange: Map<string, number>;
  readonly keysById: Map<string, KeyRecord>;
  readonly keysByHash: Map<string, KeyRecord>;
  readonly keyVersions: Map<string, number>;
  readonly planVersions: Map<string, number>;
  plan: PlanRecord | null;
  /** Set by markCaughtUp once the replay has reached the log's head (docs/read-models.md). */
  caughtUp: boolean;
}

export const createMemoryRecords = (): MemoryRecords => ({
  items: new Map(),
  itemVersions: new Map(),
  collections: new Map(),
  collectionVersions: new Map(),
  memberships: new Map(),
  lastChange: new Map(),
  keysById: new Map(),
  keysByHash: new Map(),
  keyVersions: new Map(),
  planVersions: new Map(),
  plan: null,
  caughtUp: false,
});

export const membershipOf = (records: MemoryRecords, slug: string): Membership => {
  let membership = records.memberships.get(slug);
  if (!membership) {
    membership = { members: new Set(), indexes: new Map() };
    records.memberships.set(slug, membership);
  }
  return membership;
};

/** Removes an item from its collection's members and every built index. */
export const leaveCollection = (records: MemoryRecords, item: ItemRecord): void => {
  const membership = records.memberships.get(item.collectionId);
  if (!membership) return;
  membership.members.delete(item.dataId);
  for (const { index } of membership.indexes.values()) index.delete(item.dataId);
};

/** Adds (or moves) an item in its collection's members and every built index. */
export const enterCollection = (records: MemoryRecords, item: ItemRecord): void => {
  const membership = membershipOf(records, item.collectionId);
  membership.members.add(item.dataId);
  for (const [field, { kind, index }] of membership.indexes) index.set(item.dataId, sortKeyOf(item, field, kind));
};

/** The collection's index for a sort field, built from its members on first use. */
export const sortedIndexOf = (records: MemoryRecords, slug: string, field: string, kind: SortKind): SortedIndex => {
  const membership = membershipOf(records, slug);
  const built = membership.indexes.get(field);
  if (built) return built.index;
  const index = createSortedIndex();
  for (const dataId of membership.members) {
    const item = records.items.get(dataId);
    if (item) index.set(dataId, sortKeyOf(item, field, kind));
  }
  membership.indexes.set(field, { kind, index });
  return index;
};

/** Notes a change of the collection at `position` (lastChange never moves back). */
export const touchCollection = (records: MemoryRecords, slug: string, position: number): void => {
  if ((records.lastChange.get(slug) ?? 0) < position) records.lastChange.set(slug, position);
};
