import { BoundedMemoryLimiter } from './boundedMemoryLimiter.js';
import { createFlexibleRateLimiter } from './flexibleRateLimiter.js';
import type { RateLimiter, RateLimitWindow } from './rateLimiter.js';

/** Rate limits held in this process (embedded profile: one API process). */
export const createMemoryRateLimiter = (options: { window: RateLimitWindow; now?: () => Date }): RateLimiter =>
  createFlexibleRateLimiter({
    window: options.window,
    now: options.now ?? (() => new Date()),
    build: (points, duration) => new BoundedMemoryLimiter({ points, duration, keyPrefix: 'rl' }),
  });
