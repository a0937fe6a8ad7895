import { RateLimiterMemory } from 'rate-limiter-flexible';

/** Longest expiry Node timers can hold (setTimeout overflows above 2^31-1 ms, about 24.8 days). */
const MAX_TIMER_SECONDS = 24 * 24 * 3600;

/**
 * RateLimiterMemory expires counters with setTimeout, which fires at once for delays over ~24.8
 * days: a monthly-quota counter set early in a 31-day month would vanish immediately. Such
 * counters are kept without expiry instead; their key carries the month, so a new month starts a
 * new counter anyway (one small entry per subject per month).
 */
export class BoundedMemoryLimiter extends RateLimiterMemory {
  override consume(key: string | number, pointsToConsume?: number, options?: { [key: string]: unknown }) {
    const duration = options?.customDuration;
    const safe = typeof duration === 'number' && duration > MAX_TIMER_SECONDS ? { ...options, customDuration: 0 } : options;
    return super.consume(key, pointsToConsume, safe);
  }
}
