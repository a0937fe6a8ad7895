import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './memoryRateLimiter.js';
import { testRateLimiterContract } from './testing/rateLimiterContract.js';

testRateLimiterContract('memory', async (window) => {
  let nowMs = Date.parse('2026-11-23T10:17:42.123Z');
  return {
    limiter: createMemoryRateLimiter({ window, now: () => new Date(nowMs) }),
    async advance(ms) {
      nowMs += ms;
    },
  };
});

describe('memory rate limiter', () => {
  it('an hour window: a refusal waits until the first request of the hour leaves it', async () => {
    let now = new Date('2026-11-23T10:17:15.000Z');
    const limiter = createMemoryRateLimiter({ window: 'hour', now: () => now });
    expect(await limiter.consume('a', 2)).toMatchObject({ allowed: true, remaining: 1, resetAt: Date.parse('2026-11-23T11:17:15Z') / 1000 });
    now = new Date('2026-11-23T10:47:15.000Z');
    expect(await limiter.consume('a', 2)).toMatchObject({ allowed: true, remaining: 0, resetAt: Date.parse('2026-11-23T11:17:15Z') / 1000 });
    // The top of the hour resets nothing.
    now = new Date('2026-11-23T11:00:01.000Z');
    expect(await limiter.consume('a', 2)).toMatchObject({ allowed: false, retryAfter: 1_034, resetAt: Date.parse('2026-11-23T11:17:15Z') / 1000 });
    now = new Date('2026-11-23T11:17:15.000Z');
    expect(await limiter.consume('a', 2)).toMatchObject({ allowed: true, remaining: 0, resetAt: Date.parse('2026-11-23T11:47:15Z') / 1000 });
  });

  it('keeps the monthly quota early in a long month (a counter, not a timer)', async () => {
    let now = new Date('2026-03-01T00:00:05.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: true });
    now = new Date('2026-03-30T00:00:05.000Z');
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: false, resetAt: Date.parse('2026-04-01T00:00:00Z') / 1000 });
  });

  it('tracks at most maxKeys keys: the one used least recently is forgotten first', async () => {
    const now = () => new Date('2026-11-23T10:17:15.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now, maxKeys: 2 });
    await limiter.consume('a', 1);
    await limiter.consume('b', 1);
    expect((await limiter.consume('a', 1)).allowed).toBe(false);
    await limiter.consume('c', 1);
    // b was the least recently used of the three: forgotten, it starts again.
    expect((await limiter.consume('b', 1)).allowed).toBe(true);
    expect((await limiter.consume('c', 1)).allowed).toBe(false);
  });
});
