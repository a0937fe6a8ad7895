import { withRedisTimeout, type RedisReadModelClient } from '@pubstream/read-model';
import { createCircuitBreaker } from './circuitBreaker.js';
import { createMemoryRateLimiter } from './memoryRateLimiter.js';
import { QUOTA_SCRIPT, WINDOW_SCRIPT } from './rateLimitScripts.js';
import { scriptRunner, type LuaScript } from './redisScripts.js';
import {
  rateLimitResult,
  slidingWindowSpec,
  type LimiterDecision,
  type RateLimiter,
  type RateLimitResult,
  type RateLimitWindow,
  type SlidingWindowSpec,
} from './rateLimiter.js';

export interface RedisRateLimiterOptions {
  /** A connected node-redis client or cluster client. */
  readonly client: RedisReadModelClient;
  readonly window: RateLimitWindow | SlidingWindowSpec;
  /** The insurance limiter's clock only: windows in Redis run on the Redis server's clock. */
  readonly now?: () => Date;
  readonly keyPrefix?: string;
  /** Bound of one rate-limit call to Redis (default 400 ms); past it the insurance limiter answers. */
  readonly timeoutMs?: number;
  /** After a failed call, how long the insurance limiter answers alone before Redis is tried again (default 1000 ms). */
  readonly retryRedisAfterMs?: number;
  /** Told when Redis fails and the limiter falls back to memory (once per outage, for a log line). */
  readonly onFallback?: (error: unknown) => void;
}

/**
 * Rate limits shared by every API node through Redis, decided by one Lua script per counter on the
 * Redis server's clock (docs/decisions.md, Rate limits): one key per API key, so it works on Redis
 * Cluster, and one round trip, pipelined with the request's read. While Redis is unreachable,
 * frozen or slow, each node answers from an in-memory limiter of the same size (the insurance
 * limiter) on its own clock, so a Redis outage never turns rate limiting into errors or waits.
 */
export const createRedisRateLimiter = (options: RedisRateLimiterOptions): RateLimiter => {
  const spec = slidingWindowSpec(options.window);
  const prefix = options.keyPrefix ?? 'ps:rl';
  const timeoutMs = options.timeoutMs ?? 400;
  const insurance = createMemoryRateLimiter({ window: spec, now: options.now });
  const breaker = createCircuitBreaker({ openMs: options.retryRedisAfterMs ?? 1_000 });
  const evaluate = scriptRunner(options.client);

  const decide = async (script: LuaScript, key: string, args: number[], limit: number, fallback: () => Promise<RateLimitResult>): Promise<RateLimitResult> => {
    if (!breaker.allow()) return fallback();
    try {
      const reply = await withRedisTimeout(evaluate(script, key, args.map(String)), timeoutMs);
      const decision = parseReply(reply);
      breaker.succeeded();
      return rateLimitResult(limit, decision);
    } catch (error) {
      if (breaker.failed()) options.onFallback?.(error);
      return fallback();
    }
  };

  return {
    consume: (subject, limit) =>
      decide(WINDOW_SCRIPT, `${prefix}:w:${subject}`, [limit, spec.windowMs, spec.windowMs / spec.buckets], limit, () => insurance.consume(subject, limit)),
    consumeMonthly: (subject, quota) => decide(QUOTA_SCRIPT, `${prefix}:m:${subject}`, [quota], quota, () => insurance.consumeMonthly(subject, quota)),
  };
};

const parseReply = (reply: unknown): LimiterDecision => {
  if (!Array.isArray(reply) || reply.length !== 4 || !reply.every((value) => typeof value === 'number')) {
    throw new Error(`Unexpected rate-limit script reply: ${JSON.stringify(reply)}`);
  }
  const [allowed, remaining, resetMs, at] = reply as [number, number, number, number];
  return { allowed: allowed === 1, remaining, resetMs, at };
};
