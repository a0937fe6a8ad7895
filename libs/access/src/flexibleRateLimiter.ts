import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ServiceUnavailableError } from '@pubstream/domain';
import { monthSlot, windowSlot, type RateLimiter, type RateLimitResult, type RateLimitWindow, type WindowSlot } from './rateLimiter.js';

/** Builds a rate-limiter-flexible limiter allowing `points` per `durationSeconds`. */
export type LimiterBuilder = (points: number, durationSeconds: number) => RateLimiterAbstract;

/**
 * The RateLimiter port on top of rate-limiter-flexible. Windows are aligned to the clock: the
 * slot id is part of the counter's key and the counter expires when its slot ends, so every node
 * (and the X-RateLimit-Reset header) agrees on when a window resets.
 */
export const createFlexibleRateLimiter = (options: {
  build: LimiterBuilder;
  window: RateLimitWindow;
  now: () => Date;
}): RateLimiter => {
  // rate-limiter-flexible fixes `points` per instance; keys carry their own limit, so one
  // instance per distinct limit (there are few: plan defaults and a handful of custom values).
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = options.build(points, 60);
      limiters.set(points, limiter);
    }
    return limiter;
  };

  const consumeIn = async (subject: string, limit: number, slot: WindowSlot, nowSeconds: number): Promise<RateLimitResult> => {
    const customDuration = Math.max(1, Math.ceil(slot.resetAt - nowSeconds));
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await limiterFor(limit).consume(`${subject}:${slot.id}`, 1, { customDuration });
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        throw new ServiceUnavailableError(undefined, { cause: error });
      }
      res = error;
      allowed = false;
    }
    return { allowed, limit, remaining: Math.max(0, limit - res.consumedPoints), resetAt: slot.resetAt };
  };

  return {
    consume(subject, limit) {
      const at = options.now();
      return consumeIn(subject, limit, windowSlot(options.window, at), at.getTime() / 1000);
    },
    consumeMonthly(subject, quota) {
      const at = options.now();
      return consumeIn(`quota:${subject}`, quota, monthSlot(at), at.getTime() / 1000);
    },
  };
};
