import type { Timer, TimerSet } from './timerSet.js';

/**
 * Follows the snapshot that starts at `connected`: which watched ids it mentioned, and when it is
 * complete (quiet for `quietMs`, or `maxMs` after it began while deltas keep arriving). Then the
 * watched ids it did not mention go to `onUnseen`, so the client can ask the read API about
 * items deleted while it was away.
 */
export interface SnapshotTracker {
  /** A new snapshot begins (`connected`). */
  begin(): void;
  /** The stream mentioned this item. */
  saw(dataId: string): void;
  /** True when the stream mentioned the item since the snapshot began. */
  hasSeen(dataId: string): boolean;
  /** A frame arrived: the snapshot is not quiet yet. */
  touch(): void;
  /** The stream ended: stop waiting for the snapshot. */
  stop(): void;
  /**
   * The server said the snapshot is complete (`ready`): stops waiting and returns the watched ids
   * it did not mention, which do not exist (none when no snapshot was open).
   */
  complete(): string[];
}

/** Options of {@link createSnapshotTracker}. */
export interface SnapshotTrackerOptions {
  timers: TimerSet;
  quietMs: number;
  maxMs: number;
  watchedIds: readonly string[];
  /** False once the stream was replaced; a settled snapshot of an old stream reports nothing. */
  isCurrent: () => boolean;
  onUnseen: (dataIds: string[]) => void;
}

/** Creates a {@link SnapshotTracker} that waits for nothing until `begin`. */
export function createSnapshotTracker(options: SnapshotTrackerOptions): SnapshotTracker {
  const { timers } = options;
  const seen = new Set<string>();
  let open = false;
  let quietTimer: Timer | undefined;
  let maxTimer: Timer | undefined;

  const settle = () => {
    if (!open || !options.isCurrent()) return;
    open = false;
    timers.cancel(quietTimer);
    timers.cancel(maxTimer);
    const unseen = options.watchedIds.filter((id) => !seen.has(id));
    if (unseen.length > 0) options.onUnseen(unseen);
  };
  const touch = () => {
    if (!open) return;
    timers.cancel(quietTimer);
    quietTimer = timers.later(options.quietMs, settle);
  };

  return {
    begin() {
      seen.clear();
      open = true;
      touch();
      timers.cancel(maxTimer);
      maxTimer = timers.later(options.maxMs, settle);
    },
    saw: (dataId) => void seen.add(dataId),
    hasSeen: (dataId) => seen.has(dataId),
    touch,
    stop() {
      timers.cancel(quietTimer);
      timers.cancel(maxTimer);
    },
    complete() {
      timers.cancel(quietTimer);
      timers.cancel(maxTimer);
      if (!open) return [];
      open = false;
      return options.watchedIds.filter((id) => !seen.has(id));
    },
  };
}
