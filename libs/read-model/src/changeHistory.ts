import type { ItemData } from '@pubstream/domain';

/**
 * One item change kept in the history (docs/read-models.md, "Change history"): immutable once
 * written. `data` is the item's data after an update, `{}` after a delete.
 */
export interface ChangeEntry {
  readonly position: number;
  readonly dataId: string;
  /** Slug of the collection the item belonged to at that change. */
  readonly collectionId: string;
  readonly action: 'update' | 'delete';
  readonly version: number;
  readonly data: ItemData;
}

/** A request for changes older than the retained history: the caller must re-read (410 / reset). */
export const EXPIRED = 'expired' as const;
export type Expired = typeof EXPIRED;

export interface CollectionChanges {
  /** In position order, at most the limit asked for. */
  readonly changes: readonly ChangeEntry[];
  /** More changes follow the last one returned. */
  readonly hasMore: boolean;
  /**
   * The collection's lastChange, read with the changes (same script): every item change of the
   * collection at or below it is in the history (or below the floor).
   */
  readonly lastChange: number;
}

/**
 * The read side of the change history the projector writes through ProjectionStore.apply (when
 * it records history). Kept for RESUME_WINDOW; positions are global log positions.
 */
export interface ChangeHistory {
  /**
   * The lowest P from which "every change after P" is still complete: the larger of the position
   * where history recording began and the applied position RESUME_WINDOW ago. A request with
   * after < floor is expired.
   */
  historyFloor(): Promise<number>;
  /** Every change of these items with after < position ≤ until, in position order; or EXPIRED. */
  itemChanges(dataIds: readonly string[], after: number, until: number): Promise<readonly ChangeEntry[] | Expired>;
  /** The collection's item changes after `after`, in position order, at most `limit`; or EXPIRED. */
  collectionChanges(slug: string, after: number, limit: number): Promise<CollectionChanges | Expired>;
}

/**
 * How the projector asks `apply` to record history (docs/read-models.md, "Change history"): the
 * batch's item changes become entries, indexes are trimmed to the applied position `windowMs`
 * before `at`, and the checkpoint write records `at → position` in the time index.
 */
export interface HistoryRecording {
  /** The projector's clock when it stores the batch. */
  readonly at: Date;
  /** RESUME_WINDOW in ms. */
  readonly windowMs: number;
}

/**
 * The time index's step: one `time → position` point per step at most, so it holds about a
 * thousand points per window whatever the write rate. The floor is then up to one step older
 * than exact (more is kept, never less).
 */
export const historyIndexStepMs = (windowMs: number): number => Math.max(1_000, Math.floor(windowMs / 1_000));

/**
 * How long an index that is not written any more lives: one window, plus two steps of the time
 * index (the floor may lag by one step), plus a second of margin.
 */
export const historyTtlMs = (windowMs: number): number => windowMs + 2 * historyIndexStepMs(windowMs) + 1_000;
