import type { ProjectedEvent } from './projections/projection.js';

/** A batch the applier stored: its decoded events, which cover the positions (after, to]. */
export interface AppliedBatch {
  readonly after: number;
  readonly to: number;
  readonly events: readonly ProjectedEvent[];
}

/**
 * The last few batches the applier stored, kept so that a publisher that keeps up announces them
 * without reading and decoding the log a second time. Only an optimisation: a publisher that fell
 * behind (or started later) reads the log, which stays the outbox (docs/projections.md).
 */
export interface RecentBatches {
  add(batch: AppliedBatch): void;
  /** The stored batch that starts right after `position`, if still kept. */
  startingAfter(position: number): AppliedBatch | undefined;
  clear(): void;
}

export const createRecentBatches = (maxEvents = 5_000): RecentBatches => {
  const batches: AppliedBatch[] = [];
  let events = 0;
  return {
    add(batch) {
      batches.push(batch);
      events += batch.events.length;
      while (events > maxEvents && batches.length > 1) events -= batches.shift()?.events.length ?? 0;
    },
    startingAfter: (position) => batches.find((batch) => batch.after === position),
    clear() {
      batches.length = 0;
      events = 0;
    },
  };
};
