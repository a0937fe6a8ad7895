import type { LimiterDecision, SlidingWindowSpec } from './rateLimiter.js';

/** One sub-bucket of a key's window: the requests it admitted and when the latest of them came. */
export interface WindowBucket {
  /** floor(time / bucket length): requests of one bucket length share a bucket. */
  readonly index: number;
  readonly count: number;
  /** Unix ms of the latest request counted in this bucket. */
  readonly last: number;
}

export interface SlidingWindowDecision extends LimiterDecision {
  /** The key's buckets after this request, oldest first: the ones out of the window are dropped. */
  readonly buckets: readonly WindowBucket[];
}

/**
 * One request of a key at `nowMs` against `limit` per window (docs/decisions.md, Rate limits).
 * A bucket counts, whole, while its latest request is inside the window (later than at − window):
 * so every request of the last window is counted (never more than `limit` in any span of one
 * window), and a request is counted at most one bucket length too long (the worst case: a refusal
 * up to one bucket length early). `buckets` are oldest first, as this function returns them; the
 * Redis script (rateLimitScripts.ts) makes the same decision on the server's clock.
 */
export const decideSlidingWindow = (buckets: readonly WindowBucket[], nowMs: number, limit: number, spec: SlidingWindowSpec): SlidingWindowDecision => {
  const newest = buckets[buckets.length - 1];
  // A key's clock never goes back: a clock stepped back (NTP) must not reopen spent slots.
  const at = newest !== undefined && newest.last > nowMs ? newest.last : nowMs;
  let first = 0;
  while (first < buckets.length && (buckets[first] as WindowBucket).last <= at - spec.windowMs) first++;
  let live = first === 0 ? buckets : buckets.slice(first);
  let used = 0;
  for (const bucket of live) used += bucket.count;
  const allowed = used < limit;
  if (allowed) {
    live = withRequest(live, Math.floor(at / (spec.windowMs / spec.buckets)), at);
    used += 1;
  }
  const remaining = Math.max(0, limit - used);
  const resetMs = remaining > 0 ? at + spec.windowMs : nextAdmission(live, used, limit, at + spec.windowMs, spec.windowMs);
  return { allowed, remaining, resetMs, at, buckets: live };
};

const withRequest = (live: readonly WindowBucket[], index: number, at: number): readonly WindowBucket[] => {
  const newest = live[live.length - 1];
  if (newest?.index === index) return [...live.slice(0, -1), { index, count: newest.count + 1, last: at }];
  return [...live, { index, count: 1, last: at }];
};

/** When enough of the oldest buckets have left the window for one more request to fit. */
const nextAdmission = (live: readonly WindowBucket[], used: number, limit: number, fallback: number, windowMs: number): number => {
  let left = used;
  for (const bucket of live) {
    left -= bucket.count;
    if (left < limit) return bucket.last + windowMs;
  }
  return fallback;
};
