/**
 * The rate limiter port: a sliding window per key (never more than the limit in any span of one
 * window, see docs/decisions.md "Rate limits") and an optional calendar-month quota (UTC).
 * Adapters: memory (the injected clock) and Redis (the Redis server's clock).
 */
export type RateLimitWindow = 'minute' | 'hour';

/** A sliding window of `windowMs`, counted in `buckets` equal sub-buckets. */
export interface SlidingWindowSpec {
  readonly windowMs: number;
  /** How many sub-buckets the window is cut into: memory per key is O(buckets). */
  readonly buckets: number;
}

/** 60 sub-buckets: one second per bucket for a minute window, one minute for an hour window. */
const SLIDING_WINDOWS: Readonly<Record<RateLimitWindow, SlidingWindowSpec>> = {
  minute: { windowMs: 60_000, buckets: 60 },
  hour: { windowMs: 3_600_000, buckets: 60 },
};

/** The spec of a configured window (RATE_LIMIT_WINDOW), or a spec given as is (tests use short ones). */
export const slidingWindowSpec = (window: RateLimitWindow | SlidingWindowSpec): SlidingWindowSpec => {
  const spec = typeof window === 'string' ? SLIDING_WINDOWS[window] : window;
  if (!Number.isInteger(spec.buckets) || spec.buckets < 1 || !Number.isInteger(spec.windowMs / spec.buckets)) {
    throw new RangeError(`A sliding window must cut into whole milliseconds: ${spec.windowMs} ms / ${spec.buckets}`);
  }
  return spec;
};

export interface RateLimitResult {
  readonly allowed: boolean;
  /** Requests allowed per window (or per month for the quota). */
  readonly limit: number;
  /** Requests that would still be admitted right now, after this one (never negative). */
  readonly remaining: number;
  /**
   * Unix time in whole seconds (rounded up): when `remaining` is 0, the moment the next request
   * will be admitted again; otherwise the moment the whole limit is free again (every request
   * counted now has left the window). For the monthly quota: the start of the next month (UTC).
   */
  readonly resetAt: number;
  /** Refused: seconds to wait (≥ 1) before the next request is admitted; 0 when allowed. */
  readonly retryAfter: number;
  /** The limiter clock's reading for this decision, Unix ms (the Redis server's for Redis). */
  readonly at: number;
}

export interface RateLimiter {
  /** Counts one request of `subject` (a key id) against `limit` requests per window. */
  consume(subject: string, limit: number): Promise<RateLimitResult>;
  /** Counts one request of `subject` against `quota` requests per UTC calendar month. */
  consumeMonthly(subject: string, quota: number): Promise<RateLimitResult>;
}

/** What an adapter decided, in the limiter clock's milliseconds. */
export interface LimiterDecision {
  readonly allowed: boolean;
  readonly remaining: number;
  readonly resetMs: number;
  readonly at: number;
}

/** The port's result from a decision: whole seconds, rounded up so that waiting them is enough. */
export const rateLimitResult = (limit: number, decision: LimiterDecision): RateLimitResult => ({
  allowed: decision.allowed,
  limit,
  remaining: Math.max(0, decision.remaining),
  resetAt: Math.ceil(decision.resetMs / 1000),
  retryAfter: decision.allowed ? 0 : Math.max(1, Math.ceil((decision.resetMs - decision.at) / 1000)),
  at: decision.at,
});
