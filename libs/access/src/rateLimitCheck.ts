import { RateLimitedError } from '@pubstream/domain';
import type { KeyRecord } from '@pubstream/read-model';
import type { RateLimiter, RateLimitResult } from './rateLimiter.js';

export interface RateLimitDecision {
  /** The per-window result: what the X-RateLimit-* headers show. */
  readonly window: RateLimitResult;
  /** Set when the request must be refused with 429. */
  readonly rejection: RateLimitedError | null;
}

/**
 * Counts one request of a key against its per-window limit and, for live keys, against the
 * plan's monthly quota (project-wide, UTC calendar month) when one is set. Both counters are
 * consumed concurrently, so a Redis adapter pipelines them in one round trip. The seconds to wait
 * come from the limiter's own clock (the Redis server's for Redis), never this node's.
 */
export const checkRateLimits = async (
  key: KeyRecord,
  deps: { readonly rateLimiter: RateLimiter; readonly monthlyQuota: number | null },
): Promise<RateLimitDecision> => {
  const quotaApplies = key.type === 'live' && deps.monthlyQuota !== null;
  const [window, month] = await Promise.all([
    deps.rateLimiter.consume(key.keyId, key.rateLimit),
    quotaApplies ? deps.rateLimiter.consumeMonthly('project', deps.monthlyQuota ?? 0) : null,
  ]);
  if (!window.allowed) {
    const seconds = window.retryAfter;
    return { window, rejection: new RateLimitedError(`Rate limit exceeded. Try again in ${seconds} seconds.`, seconds) };
  }
  if (month && !month.allowed) {
    return { window, rejection: new RateLimitedError('Rate limit exceeded. Try again later.', month.retryAfter, 'monthly_quota') };
  }
  return { window, rejection: null };
};
