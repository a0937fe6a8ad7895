import { ValidationError } from '@pubstream/domain';
import type { CollectionRecord, ItemRecord } from './records.js';

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
  /**
   * The collection's lastChange, read atomically with the page: the position of its latest change
   * (its record or any of its items). The page is exactly the collection's state at it.
   */
  readonly position: number;
}

/**
 * The public reads (docs/read-models.md): items, collections and their pages, as the public API,
 * the fanout hub's snapshots and the admin read them. Written only by the projector, through the
 * ProjectionStore of the same adapter. A new read (e.g. the applied position) is one method here,
 * one in each adapter's read-model module and one in the generational follower.
 */
export interface ReadModel {
  getItem(dataId: string): Promise<ItemRecord | null>;
  /** Same order and length as `dataIds`, null where missing. One round trip. */
  getItems(dataIds: readonly string[]): Promise<(ItemRecord | null)[]>;
  getCollection(slug: string): Promise<CollectionRecord | null>;
  listCollections(): Promise<CollectionRecord[]>;
  /**
   * A page of the collection, null when the collection does not exist. Items missing the sort
   * field come last; ties order by dataId in the same direction. One round trip. Sorting by an
   * undeclared field throws ValidationError.
   */
  getCollectionPage(slug: string, query: PageQuery): Promise<PageResult | null>;
  countItems(slug: string): Promise<number>;
  /**
   * Whether the read model was marked caught up (ProjectionStore.markCaughtUp) since it was last
   * emptied: only then does a miss mean "does not exist" (docs/read-models.md, "Unknown is not missing").
   */
  isCaughtUp(): Promise<boolean>;
  /**
   * The projector's applied checkpoint of the generation being read (APPLIED_CHECKPOINT), 0 before
   * the first batch: everything up to it is in the read model (written after a whole batch).
   */
  appliedPosition(): Promise<number>;
  /**
   * Whether getItems reads every item at one instant (one Redis node, memory): then the largest
   * position of the found records is the batch's position. Not on a Redis Cluster (docs/public-api.md, X-Position).
   */
  readonly atomicBatches: boolean;
}

/** The name of the projector's applied checkpoint that appliedPosition() reads. */
export const APPLIED_CHECKPOINT = 'projector';

/**
 * Checks a page query's numbers; every adapter calls it before reading. The API validates user
 * input with its own messages; this guards every other caller.
 */
export const checkPageQuery = (query: PageQuery): void => {
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new ValidationError('offset must be an integer ≥ 0');
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new ValidationError('limit must be an integer ≥ 0');
  if (query.order !== 'asc' && query.order !== 'desc') throw new ValidationError('order must be asc or desc');
};
