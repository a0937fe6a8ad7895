import type { ReconnectReason } from './sseFrames.js';

/** A range of milliseconds; a hint is drawn uniformly in [minMs, maxMs). */
export interface MsRange {
  readonly minMs: number;
  readonly maxMs: number;
}

export interface ReconnectHintOptions {
  /** Window over which the reconnects of a draining node are spread (SHUTDOWN_RECONNECT_WINDOW_MS). */
  readonly shutdownWindowMs: number;
  /** The `retry:` of every new stream. Default 1–5 s. */
  readonly streamRetry?: MsRange;
  /** `retryAfterMs` of a stream cut as a slow consumer. Default 5–15 s. */
  readonly slowConsumer?: MsRange;
  /** `retryAfterMs` of a stream that could not re-sync after a change-stream gap. Default 1–5 s. */
  readonly resyncFailed?: MsRange;
  /** Math.random by default. */
  readonly random?: () => number;
}

/**
 * How long clients should wait before they reconnect (docs/subscriptions.md, "Reconnect hints").
 * Every hint is jittered, so streams that ended together do not come back together.
 */
export interface ReconnectHints {
  /** The `retry:` of a new stream: where a plain EventSource reconnects after a dropped connection. */
  streamRetryMs(): number;
  /**
   * `retryAfterMs` of a stream ended for `reason` outside a drain: slow_consumer and resync_failed
   * wait; cycle reconnects at once; key_revoked and plan_changed are not to be retried.
   */
  retryAfterMs(reason: ReconnectReason): number | undefined;
  /** One delay per stream of a draining node, spread evenly over the shutdown window, in random order. */
  spreadOverWindow(count: number): number[];
}

export const DEFAULT_STREAM_RETRY: MsRange = { minMs: 1_000, maxMs: 5_000 };
export const DEFAULT_SLOW_CONSUMER_RETRY: MsRange = { minMs: 5_000, maxMs: 15_000 };
export const DEFAULT_RESYNC_FAILED_RETRY: MsRange = { minMs: 1_000, maxMs: 5_000 };

export const createReconnectHints = (options: ReconnectHintOptions): ReconnectHints => {
  const random = options.random ?? Math.random;
  const draw = (range: MsRange): number => Math.floor(range.minMs + random() * (range.maxMs - range.minMs));
  const windowMs = Math.max(0, options.shutdownWindowMs);
  return {
    streamRetryMs: () => draw(options.streamRetry ?? DEFAULT_STREAM_RETRY),
    retryAfterMs(reason) {
      if (reason === 'slow_consumer') return draw(options.slowConsumer ?? DEFAULT_SLOW_CONSUMER_RETRY);
      if (reason === 'resync_failed') return draw(options.resyncFailed ?? DEFAULT_RESYNC_FAILED_RETRY);
      if (reason === 'shutdown') return Math.floor(random() * windowMs);
      return undefined;
    },
    spreadOverWindow(count) {
      // Stratified: one delay in each of `count` equal slices of the window, so that any second of
      // the window gets its share however the random draws fall; then shuffled (Fisher-Yates) so
      // that a stream's delay does not depend on when it connected.
      const delays = Array.from({ length: count }, (_, index) => Math.floor(((index + random()) * windowMs) / count));
      for (let index = count - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        [delays[index], delays[other]] = [delays[other] as number, delays[index] as number];
      }
      return delays;
    },
  };
};
