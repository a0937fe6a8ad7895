import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend, startLocalRedis, type LocalRedis } from '@pubstream/testing';
import { createRedisRateLimiter } from './redisRateLimiter.js';

// Issue 23: a frozen Redis (SIGSTOP) must not hang the rate limit check. A private redis-server,
// since this test freezes it; SIGCONT runs in afterAll too, whatever happened.

describeWithBackend('redis', 'redis rate limiter while Redis is frozen (SIGSTOP)', () => {
  let redis: LocalRedis | undefined;
  let client: RedisReadModelClient | undefined;
  let pid: number | undefined;
  const thaw = () => {
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Already gone: nothing to resume.
    }
  };

  beforeAll(async () => {
    redis = await startLocalRedis();
    client = await connectRedis(redis.url, () => {});
    const info = await client.info('server');
    pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
  });
  afterAll(async () => {
    thaw();
    client?.destroy();
    await redis?.stop();
  });

  it('answers from the in-memory insurance limiter within a bounded time, and from Redis again once it resumes', async () => {
    const limiter = createRedisRateLimiter({ client: client!, window: 'minute', keyPrefix: `freeze-${randomUUID()}` });
    // Before the freeze, key r has used its whole limit in Redis.
    expect((await Promise.all([1, 2, 3].map(() => limiter.consume('r', 2)))).map((r) => r.allowed).sort()).toEqual([false, true, true]);

    process.kill(pid!, 'SIGSTOP');
    try {
      const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000).unref());
      const frozen = await Promise.race([Promise.all([...[1, 2, 3, 4].map(() => limiter.consume('k', 3)), limiter.consume('r', 2)]), hung]);
      expect(frozen).not.toBe('hung');
      const results = frozen as Exclude<typeof frozen, 'hung'>;
      // The insurance limiter has the same size (3 per window) and knows nothing of r.
      expect(results.slice(0, 4).map((r) => r.allowed)).toEqual([true, true, true, false]);
      expect(results[4]).toMatchObject({ allowed: true, limit: 2 });
      // Still frozen: later calls answer too, without waiting on Redis again.
      expect(await Promise.race([limiter.consume('k', 3), hung])).toMatchObject({ allowed: false, remaining: 0 });
    } finally {
      thaw();
    }

    // Redis is back: it still remembers that r used its limit (the insurance limiter would admit r).
    let fromRedis = false;
    for (let attempt = 0; attempt < 100 && !fromRedis; attempt++) {
      fromRedis = !(await limiter.consume('r', 2)).allowed;
      if (!fromRedis) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fromRedis).toBe(true);
  });
});
