import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend } from '@pubstream/testing';
import { decideMonthlyQuota, monthEndMs, monthOf, type MonthCount } from './monthlyQuota.js';
import type { RateLimiter } from './rateLimiter.js';
import { SCRIPTS_AT_GIVEN_TIME } from './rateLimitScripts.js';
import { createRedisRateLimiter } from './redisRateLimiter.js';
import { scriptRunner } from './redisScripts.js';
import { decideSlidingWindow, type WindowBucket } from './slidingWindow.js';
import { testRateLimiterContract } from './testing/rateLimiterContract.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The contract on a real Redis (or Redis Cluster), on the server's clock; deletes the keys it made. */
const redisContract = (backend: 'redis' | 'redisCluster', title: string) =>
  describeWithBackend(backend, title, (urls) => {
    let client: RedisReadModelClient;
    const prefix = `test-rl-${randomUUID()}`;
    const used = new Set<string>();
    beforeAll(async () => {
      client = await connectRedis(urls, () => {});
    });
    afterAll(async () => {
      // One key per call: on a cluster the two keys of a subject live in different slots.
      for (const subject of used) for (const kind of ['w', 'm']) await client.del(`${prefix}:${kind}:${subject}`);
      client.destroy();
    });
    const recording = (limiter: RateLimiter): RateLimiter => ({
      consume: (subject, limit) => (used.add(subject), limiter.consume(subject, limit)),
      consumeMonthly: (subject, quota) => (used.add(subject), limiter.consumeMonthly(subject, quota)),
    });
    testRateLimiterContract(backend, async (window) => ({
      limiter: recording(createRedisRateLimiter({ client, window, keyPrefix: prefix })),
      advance: sleep,
    }));
  });

redisContract('redis', 'redis rate limiter');
redisContract('redisCluster', 'redis rate limiter on Redis Cluster');

describeWithBackend('redis', 'redis rate limit scripts: the same decisions as the memory adapter', (url) => {
  let client: RedisReadModelClient;
  const prefix = `test-rl-lua-${randomUUID()}`;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  const keys: string[] = [];
  const newKey = () => {
    keys.push(`${prefix}:${randomUUID()}`);
    return keys[keys.length - 1]!;
  };
  afterAll(async () => {
    if (keys.length) await client.del(keys);
    client.destroy();
  });
  const run = () => scriptRunner(client);
  const decision = (reply: unknown) => {
    const [allowed, remaining, resetMs, at] = reply as number[];
    return { allowed: allowed === 1, remaining, resetMs, at };
  };
  // Times in the future: the script sets the key's expiry from them.
  const start = Date.now() + 86_400_000;

  it('sliding window: the Lua script and slidingWindow.ts agree on every decision of random timelines', async () => {
    const spec = { windowMs: 10_000, buckets: 5 };
    await fc.assert(
      fc.asyncProperty(
        // 0: a limit nothing passes (the scripts must not fail on it).
        fc.integer({ min: 0, max: 8 }),
        // Bucket and window lengths exactly, to hit the boundaries; negative: a clock stepped back.
        fc.array(fc.oneof(fc.integer({ min: -500, max: 3_000 }), fc.integer({ min: 0, max: 15_000 }), fc.constantFrom(0, 1, 2_000, 9_999, 10_000)), {
          minLength: 1,
          maxLength: 60,
        }),
        async (limit, gaps) => {
          const key = newKey();
          let buckets: readonly WindowBucket[] = [];
          let time = start;
          for (const gap of gaps) {
            time += gap;
            const expected = decideSlidingWindow(buckets, time, limit, spec);
            buckets = expected.buckets;
            const actual = decision(await run()(SCRIPTS_AT_GIVEN_TIME.window, key, [limit, spec.windowMs, 2_000, time].map(String)));
            expect(actual).toEqual({ allowed: expected.allowed, remaining: expected.remaining, resetMs: expected.resetMs, at: expected.at });
          }
          // The key expires when its latest request leaves the window.
          const latest = buckets.at(-1)?.last;
          if (latest !== undefined) expect(await client.pExpireTime(key)).toBe(latest + spec.windowMs);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('calendar: the Lua month end agrees with Date for any time from 1970 to 2400', async () => {
    const key = newKey();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: Date.parse('2400-01-01T00:00:00Z') }), async (ms) => {
        expect(await run()(SCRIPTS_AT_GIVEN_TIME.monthEnd, key, [String(ms)])).toBe(monthEndMs(monthOf(ms)));
      }),
      { numRuns: 200 },
    );
  });

  it('monthly quota across a month boundary: the Lua script and monthlyQuota.ts agree', async () => {
    const key = newKey();
    const times = ['2031-01-31T23:59:58Z', '2031-01-31T23:59:59Z', '2031-01-31T23:59:59.5Z', '2031-02-01T00:00:00Z', '2031-01-31T23:59:59.9Z', '2031-02-01T00:00:01Z', '2031-02-01T00:00:02Z'];
    let state: MonthCount | undefined;
    for (const time of times) {
      const expected = decideMonthlyQuota(state, Date.parse(time), 2);
      state = expected.state;
      const actual = decision(await run()(SCRIPTS_AT_GIVEN_TIME.quota, key, ['2', String(Date.parse(time))]));
      expect(actual).toEqual({ allowed: expected.allowed, remaining: expected.remaining, resetMs: expected.resetMs, at: expected.at });
    }
  });
});

describeWithBackend('redis', 'redis rate limiter without Redis', (url) => {
  it('answers from the in-memory insurance limiter (same size) when Redis is unreachable', async () => {
    const dead = await connectRedis(url, () => {});
    dead.destroy();
    const fallbacks: unknown[] = [];
    const limiter = createRedisRateLimiter({ client: dead, window: 'minute', keyPrefix: `test-rl-${randomUUID()}`, onFallback: (error) => fallbacks.push(error) });
    expect(await limiter.consume('key-2', 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('key-2', 1)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.consumeMonthly('project', 1)).toMatchObject({ allowed: true });
    // One log line per outage, not one per request.
    expect(fallbacks).toHaveLength(1);
  });
});
