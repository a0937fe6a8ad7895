import { RateLimiterRedis } from 'rate-limiter-flexible';
import { BoundedMemoryLimiter } from './boundedMemoryLimiter.js';
import { createFlexibleRateLimiter } from './flexibleRateLimiter.js';
import type { RateLimiter, RateLimitWindow } from './rateLimiter.js';

/**
 * Rate limits shared by every API node through Redis. While Redis is unreachable each node falls
 * back to an in-memory limiter of the same size (the insurance limiter), so a Redis outage never
 * turns rate limiting into errors. Each counter is one Redis key, so this works on Redis Cluster.
 */
export const createRedisRateLimiter = (options: {
  /** A connected node-redis v4+ client (or cluster client). */
  client: unknown;
  window: RateLimitWindow;
  now?: () => Date;
  keyPrefix?: string;
}): RateLimiter =>
  createFlexibleRateLimiter({
    window: options.window,
    now: options.now ?? (() => new Date()),
    build: (points, duration) =>
      new RateLimiterRedis({
        storeClient: options.client,
        useRedisPackage: true,
        // Fail over to the insurance limiter at once instead of queueing behind a dead socket.
        rejectIfRedisNotReady: true,
        points,
        duration,
        keyPrefix: options.keyPrefix ?? 'ps:rl',
        insuranceLimiter: new BoundedMemoryLimiter({ points, duration, keyPrefix: 'rl-insurance' }),
      }),
  });
