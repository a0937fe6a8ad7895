import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { monthEndMs, monthOf } from '../monthlyQuota.js';
import type { RateLimiter, RateLimitResult, RateLimitWindow, SlidingWindowSpec } from '../rateLimiter.js';

export interface RateLimiterUnderTest {
  readonly limiter: RateLimiter;
  /** Lets the limiter's clock move on by `ms`: a fake clock jumps, a real one (Redis' server clock) is waited for. */
  advance(ms: number): Promise<void>;
  cleanup?(): Promise<void>;
}

/** A short window for the tests that let time pass: 2 s in four buckets of 500 ms. */
const SHORT: SlidingWindowSpec = { windowMs: 2_000, buckets: 4 };

/**
 * The one contract every rate limiter adapter passes (docs/decisions.md, Rate limits). Every test
 * uses fresh subjects, so a shared Redis works. Assertions read the limiter's own clock from each
 * result (`at`), so they hold on the Redis server's clock as on a fake one.
 */
export const testRateLimiterContract = (name: string, factory: (window: RateLimitWindow | SlidingWindowSpec) => Promise<RateLimiterUnderTest>): void => {
  describe(`rate limiter contract: ${name}`, () => {
    const opened: RateLimiterUnderTest[] = [];
    const open = async (window: RateLimitWindow | SlidingWindowSpec) => {
      const under = await factory(window);
      opened.push(under);
      return under;
    };
    const subject = () => `s-${randomUUID()}`;
    afterEach(async () => {
      for (const under of opened.splice(0)) await under.cleanup?.();
    });

    it('admits exactly `limit` of a burst; Remaining counts down to 0 and never below', async () => {
      const { limiter } = await open('minute');
      const key = subject();
      const results = await Promise.all(Array.from({ length: 15 }, () => limiter.consume(key, 10)));
      const admitted = results.filter((r) => r.allowed);
      expect(admitted).toHaveLength(10);
      expect(admitted.map((r) => r.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const r of results) expect(r).toMatchObject({ limit: 10, remaining: expect.any(Number) });
      for (const r of admitted) {
        expect(r.retryAfter).toBe(0);
        // The whole limit is free again when this request leaves the window.
        if (r.remaining > 0) expect(r.resetAt).toBe(Math.ceil((r.at + 60_000) / 1000));
      }
      for (const r of results.filter((x) => !x.allowed)) expectRefusal(r, 60);
    });

    it('counts keys apart', async () => {
      const { limiter } = await open('minute');
      const [a, b] = [subject(), subject()];
      expect(await limiter.consume(a, 1)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.consume(a, 1)).toMatchObject({ allowed: false, remaining: 0 });
      expect(await limiter.consume(b, 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('a limit lowered below what the key already used refuses, with Remaining 0', async () => {
      const { limiter } = await open('hour');
      const key = subject();
      for (let i = 0; i < 5; i++) expect((await limiter.consume(key, 10)).allowed).toBe(true);
      const refused = await limiter.consume(key, 3);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3 });
      expectRefusal(refused, 3_600);
    });

    it('monthly quota: `quota` requests per UTC calendar month, refusals not counted, a counter apart from the window', async () => {
      const { limiter } = await open('minute');
      const key = subject();
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.consumeMonthly(key, 2));
      expect(results.map((r) => [r.allowed, r.remaining])).toEqual([[true, 1], [true, 0], [false, 0], [false, 0]]);
      for (const r of results) {
        const end = monthEndMs(monthOf(r.at));
        expect(r.resetAt).toBe(end / 1000);
        if (!r.allowed) expect(r.retryAfter).toBe(Math.ceil((end - r.at) / 1000));
      }
      expect(await limiter.consume(key, 1)).toMatchObject({ allowed: true });
    });

    it('never admits more than `limit` in any span of one window, and refuses only when `limit` were admitted within one window plus one bucket', async () => {
      const under = await open(SHORT);
      const key = subject();
      const limit = 8;
      const seen: RateLimitResult[] = [];
      let seed = 7;
      const random = () => ((seed = (seed * 16_807) % 2_147_483_647) % 1_000) / 1_000;
      // Two and a half windows of requests at uneven intervals (real time on Redis: about 5 s).
      while (seen.length < 2 || seen[seen.length - 1]!.at - seen[0]!.at < 2.5 * SHORT.windowMs) {
        seen.push(await under.limiter.consume(key, limit));
        await under.advance(Math.floor(random() * 120));
      }
      const admittedAt = seen.filter((r) => r.allowed).map((r) => r.at);
      const within = (from: number, to: number) => admittedAt.filter((at) => at > from && at <= to).length;
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.at).toBeGreaterThanOrEqual(seen[i - 1]!.at);
      for (const at of admittedAt) expect(within(at - SHORT.windowMs, at)).toBeLessThanOrEqual(limit);
      const bucketMs = SHORT.windowMs / SHORT.buckets;
      for (const r of seen.filter((x) => !x.allowed)) expect(within(r.at - SHORT.windowMs - bucketMs, r.at)).toBeGreaterThanOrEqual(limit);
      // The window slides: more than one window's worth got through over the run, and some were refused.
      expect(admittedAt.length).toBeGreaterThan(limit);
      expect(admittedAt.length).toBeLessThan(seen.length);
    });

    it('after a refusal, a request at X-RateLimit-Reset is admitted', async () => {
      const under = await open(SHORT);
      const key = subject();
      const burst = await Promise.all(Array.from({ length: 4 }, () => under.limiter.consume(key, 3)));
      const refused = burst.find((r) => !r.allowed)!;
      expectRefusal(refused, SHORT.windowMs / 1000);
      await under.advance(refused.resetAt * 1000 - refused.at + 10);
      const again = await under.limiter.consume(key, 3);
      expect(again.allowed).toBe(true);
      expect(again.at).toBeGreaterThanOrEqual(refused.resetAt * 1000);
    });
  });
};

/** A refusal: Remaining 0, a whole number of seconds to wait within the window, and X-RateLimit-Reset just as far. */
const expectRefusal = (r: RateLimitResult, windowSeconds: number): void => {
  expect(r.allowed).toBe(false);
  expect(r.remaining).toBe(0);
  expect(Number.isInteger(r.retryAfter) && r.retryAfter >= 1 && r.retryAfter <= windowSeconds).toBe(true);
  expect(Number.isInteger(r.resetAt)).toBe(true);
  expect(r.resetAt * 1000).toBeGreaterThan(r.at + (r.retryAfter - 1) * 1000);
  expect(r.resetAt * 1000).toBeLessThan(r.at + (r.retryAfter + 1) * 1000);
};
