import type { ItemData, KeyType, PlanName, SortableField } from '@pubstream/domain';

/**
 * The read model port (DESIGN.md §5). Adapters: memory (embedded default) and Redis.
 * Writes come only from the projector, in batches, each guarded by the record's version so
 * that applying a batch twice changes nothing. Reads serve the public API and the admin.
 */

export interface ItemRecord {
  /** Internal id (uuid). */
  readonly id: string;
  readonly dataId: string;
  /** Slug of the owning collection. */
  readonly collectionId: string;
  readonly data: ItemData;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Revision of the item's stream that produced this record. */
  readonly version: number;
}

export interface CollectionRecord {
  readonly slug: string;
  readonly name: string;
  readonly sortableFields: readonly SortableField[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly version: number;
}

export interface KeyRecord {
  readonly keyId: string;
  readonly keyHash: string;
  readonly name: string;
  readonly type: KeyType;
  /** Last four characters of the key, for the masked form `pk_live_…abcd`. */
  readonly last4: string;
  readonly allowedDomains: readonly string[];
  readonly rateLimit: number;
  readonly createdAt: string;
  readonly version: number;
}

export interface PlanRecord {
  readonly plan: PlanName;
  readonly monthlyQuota: number | null;
  readonly version: number;
}

export interface KeyUsage {
  readonly keyId: string;
  readonly requestCount: number;
  readonly lastUsedAt: string | null;
}

export interface UsageCount {
  readonly keyId: string;
  /** When the requests happened (the bucket they count in); also the new last-used time. */
  readonly at: Date;
  readonly count: number;
}

/** One projected effect. `version` is the source stream's revision. */
export type ReadModelOp =
  | { readonly kind: 'item.put'; readonly item: ItemRecord }
  | { readonly kind: 'item.delete'; readonly dataId: string; readonly collectionId: string; readonly version: number }
  | { readonly kind: 'collection.put'; readonly collection: CollectionRecord }
  | { readonly kind: 'collection.delete'; readonly slug: string; readonly version: number }
  | { readonly kind: 'key.put'; readonly key: KeyRecord }
  | { readonly kind: 'key.delete'; readonly keyId: string; readonly keyHash: string; readonly version: number }
  | { readonly kind: 'plan.put'; readonly plan: PlanRecord };

export interface Checkpoint {
  readonly projection: string;
  readonly position: number;
}

export type SortOrder = 'asc' | 'desc';

export interface PageQuery {
  /** createdAt | updatedAt | dataId | a declared sortable field of the collection. */
  readonly sort: string;
  readonly order: SortOrder;
  readonly offset: number;
  readonly limit: number;
}

export interface PageResult {
  readonly items: readonly ItemRecord[];
  /** Items in the collection. */
  readonly total: number;
}

/** Proof of holding the projector lease; every write checks it (DESIGN.md §2, issue 7). */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  /** Strictly increasing across holders: a write with an older token is refused. */
  readonly token: number;
}

/** Thrown by `apply` when the caller's lease token is no longer the current one. */
export class FencedError extends Error {
  constructor(message = 'The projector lease was taken over; this writer is fenced off') {
    super(message);
    this.name = 'FencedError';
  }
}

export interface ReadModel {
  /**
   * Applies the ops in order, each only if its version is newer than the stored one (a deleted
   * record keeps a tombstone version), then stores the checkpoint. Returns, per op, whether it
   * changed anything. Atomic per op; the checkpoint is written after the effects. With a
   * `lease`, the write is refused with FencedError unless that lease's token is still current.
   */
  apply(ops: readonly ReadModelOp[], checkpoint: Checkpoint, options?: { lease?: Lease }): Promise<boolean[]>;

  /** Takes the named lease if it is free or expired; null when another holder has it. */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a held lease; false when it was lost (expired and taken by another holder). */
  renewLease(lease: Lease, ttlMs: number): Promise<boolean>;
  releaseLease(lease: Lease): Promise<void>;
  getCheckpoint(projection: string): Promise<number>;

  getItem(dataId: string): Promise<ItemRecord | null>;
  /** Same order and length as `dataIds`, null where missing. One round trip. */
  getItems(dataIds: readonly string[]): Promise<(ItemRecord | null)[]>;
  getCollection(slug: string): Promise<CollectionRecord | null>;
  listCollections(): Promise<CollectionRecord[]>;
  /**
   * A page of the collection, null when the collection does not exist. Items missing the sort
   * field come last; ties order by dataId in the same direction. One round trip.
   */
  getCollectionPage(slug: string, query: PageQuery): Promise<PageResult | null>;
  countItems(slug: string): Promise<number>;
  getKeyByHash(keyHash: string): Promise<KeyRecord | null>;
  getKey(keyId: string): Promise<KeyRecord | null>;
  listKeys(): Promise<KeyRecord[]>;
  getPlan(): Promise<PlanRecord | null>;

  /**
   * Adds request counts (request count, last used, per-hour, per-day and per-month buckets).
   * The API buffers per-request counts and flushes them in batches, so this is off the hot path.
   */
  recordUsage(counts: readonly UsageCount[]): Promise<void>;
  getUsage(keyIds: readonly string[]): Promise<KeyUsage[]>;
  /** Requests per bucket for a key: `hour` buckets are `YYYY-MM-DDTHH`, `day` are `YYYY-MM-DD`, `month` are `YYYY-MM`. */
  getUsageSeries(keyId: string, granularity: 'hour' | 'day' | 'month', from: Date, to: Date): Promise<{ bucket: string; count: number }[]>;

  /** Readiness: resolves when the backend answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
