import type { HistoryRecording } from './changeHistory.js';
import type { CollectionRecord, ItemRecord, KeyRecord, PlanRecord } from './records.js';

/**
 * One projected effect. `version` is the source stream's revision; item and collection effects
 * carry the log position of their event (in the record for puts), which the read model keeps.
 */
export type ReadModelOp =
  | { readonly kind: 'item.put'; readonly item: ItemRecord }
  | { readonly kind: 'item.delete'; readonly dataId: string; readonly collectionId: string; readonly version: number; readonly position: number }
  | { readonly kind: 'collection.put'; readonly collection: CollectionRecord }
  | { readonly kind: 'collection.delete'; readonly slug: string; readonly version: number; readonly position: number }
  | { readonly kind: 'key.put'; readonly key: KeyRecord }
  | { readonly kind: 'key.delete'; readonly keyId: string; readonly keyHash: string; readonly version: number }
  | { readonly kind: 'plan.put'; readonly plan: PlanRecord };

export interface Checkpoint {
  readonly projection: string;
  readonly position: number;
}

/** Proof of holding the projector lease; every write checks it (docs/projections.md, failover). */
export interface Lease {
  readonly name: string;
  readonly holder: string;
  /** Strictly increasing across holders: a write with an older token is refused. */
  readonly token: number;
}

export interface ApplyOptions {
  readonly lease?: Lease;
  /** Record the change history (the live projector); absent for rebuild replays and the publisher. */
  readonly history?: HistoryRecording;
}

/** Thrown by `apply` when the caller's lease token is no longer the current one. */
export class FencedError extends Error {
  constructor(message = 'The projector lease was taken over; this writer is fenced off') {
    super(message);
    this.name = 'FencedError';
  }
}

/**
 * The projector's side of the read models (docs/read-models.md): version-guarded writes with the
 * checkpoint, the lease that fences a replaced writer off, and the checkpoints it resumes from
 * (which the admin also polls for read-your-writes). Rebuild generations are functions beside the
 * Redis adapter (generations.ts), not methods here.
 */
export interface ProjectionStore {
  /**
   * Applies the ops in order, each only if its version is newer than the stored one (a deleted
   * record keeps a tombstone version), then stores the checkpoint. Returns, per op, whether it
   * changed anything. Atomic per op; the checkpoint is written after the effects. With a
   * `lease`, the write is refused with FencedError unless that lease's token is still current.
   * With `history`, every item op that changes something also appends its ChangeEntry (in the same
   * atomic write as the record), indexes are trimmed to the window, and the checkpoint write
   * records the time → position point (docs/read-models.md, "Change history").
   */
  apply(ops: readonly ReadModelOp[], checkpoint: Checkpoint, options?: ApplyOptions): Promise<boolean[]>;
  /** Takes the named lease if it is free or expired; null when another holder has it. */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null>;
  /** Extends a held lease; false when it was lost (expired and taken by another holder). */
  renewLease(lease: Lease, ttlMs: number): Promise<boolean>;
  releaseLease(lease: Lease): Promise<void>;
  /** The stored position of a projection's checkpoint; 0 before the first write. */
  getCheckpoint(projection: string): Promise<number>;
  /**
   * Marks the read model caught up — it holds the whole log up to `checkpoint.position`, a head of
   * the log the caller has seen — if and only if the stored checkpoint of `checkpoint.projection`
   * has reached that position (checked atomically). Returns whether the marker is set (now or
   * before). Whoever
   * calls it, an emptied or half-rebuilt store is never marked. The marker is lost with the data
   * (FLUSHALL, a new generation), so readers trust "not found" only from a store that has been
   * caught up since it was last emptied (docs/read-models.md, "Unknown is not missing").
   */
  markCaughtUp(checkpoint: Checkpoint): Promise<boolean>;
}
