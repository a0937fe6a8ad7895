/** Tuning of the stream; the defaults suit browsers and servers alike. */
export interface StreamTuning {
  /** Wait after a change of the watched set before the stream is re-opened, to group changes. Default 25. */
  debounceMs: number;
  /** Quiet time after which the snapshot that follows `connected` is taken as complete. Default 250. */
  snapshotQuietMs: number;
  /** Upper bound of that wait when deltas keep arriving. Default 3000. */
  snapshotMaxMs: number;
  /** Longest wait before re-opening a stream the server cut again and again. Default 300 000 (5 min). */
  maxCutBackoffMs: number;
}

export const defaultStreamTuning: Readonly<StreamTuning> = Object.freeze({ debounceMs: 25, snapshotQuietMs: 250, snapshotMaxMs: 3000, maxCutBackoffMs: 300_000 });
