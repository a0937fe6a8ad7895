import { decideMonthlyQuota, type MonthCount } from './monthlyQuota.js';
import { rateLimitResult, slidingWindowSpec, type RateLimiter, type RateLimitWindow, type SlidingWindowSpec } from './rateLimiter.js';
import { decideSlidingWindow, type WindowBucket } from './slidingWindow.js';

export interface MemoryRateLimiterOptions {
  readonly window: RateLimitWindow | SlidingWindowSpec;
  readonly now?: () => Date;
  /**
   * How many keys are tracked at most (default 100,000): past it, the key used least recently is
   * forgotten, so memory stays bounded whatever the traffic (each key holds at most 61 buckets).
   */
  readonly maxKeys?: number;
}

/**
 * Rate limits held in this process, on the injected clock: the embedded profile's limiter (one
 * API process) and the Redis adapter's insurance limiter. Same decisions as the Redis script.
 */
export const createMemoryRateLimiter = (options: MemoryRateLimiterOptions): RateLimiter => {
  const spec = slidingWindowSpec(options.window);
  const now = options.now ?? (() => new Date());
  const windows = boundedMap<readonly WindowBucket[]>(options.maxKeys ?? 100_000);
  const quotas = boundedMap<MonthCount>(options.maxKeys ?? 100_000);
  return {
    async consume(subject, limit) {
      const decision = decideSlidingWindow(windows.get(subject) ?? [], now().getTime(), limit, spec);
      windows.set(subject, decision.buckets.length > 0 ? decision.buckets : undefined);
      return rateLimitResult(limit, decision);
    },
    async consumeMonthly(subject, quota) {
      const decision = decideMonthlyQuota(quotas.get(subject), now().getTime(), quota);
      quotas.set(subject, decision.state);
      return rateLimitResult(quota, decision);
    },
  };
};

/** A Map that keeps its `max` most recently set entries; setting undefined forgets the entry. */
const boundedMap = <T>(max: number) => {
  const entries = new Map<string, T>();
  return {
    get: (name: string): T | undefined => entries.get(name),
    set(name: string, value: T | undefined): void {
      // Delete first so that a set moves the entry to the end: the first entry is the least recent.
      entries.delete(name);
      if (value === undefined) return;
      entries.set(name, value);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
  };
};
