import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '@pubstream/read-model';
import { createMemoryRateLimiter } from './memoryRateLimiter.js';
import { checkRateLimits } from './rateLimitCheck.js';
import { monthSlot, windowSlot } from './rateLimiter.js';

const key = (type: 'live' | 'test', rateLimit: number): KeyRecord => ({
  keyId: `key-${type}-${rateLimit}`,
  keyHash: 'h',
  name: 'k',
  type,
  last4: 'abcd',
  allowedDomains: [],
  rateLimit,
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 0,
});

describe('windows', () => {
  it('minute and hour windows reset at the top of the minute and the hour', () => {
    const at = new Date('2026-11-23T10:17:42.500Z');
    expect(windowSlot('minute', at).resetAt).toBe(Date.parse('2026-11-23T10:18:00Z') / 1000);
    expect(windowSlot('hour', at).resetAt).toBe(Date.parse('2026-11-23T11:00:00Z') / 1000);
    expect(monthSlot(at)).toEqual({ id: 'M2026-11', resetAt: Date.parse('2026-12-01T00:00:00Z') / 1000 });
    expect(monthSlot(new Date('2026-12-31T23:59:59Z')).resetAt).toBe(Date.parse('2027-01-01T00:00:00Z') / 1000);
  });
});

describe('memory rate limiter', () => {
  it('allows exactly `limit` requests per window, counting remaining down, then refuses until the reset', async () => {
    let now = new Date('2026-11-23T10:17:00.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.consume('a', 3));
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(results[0]).toMatchObject({ limit: 3, resetAt: Date.parse('2026-11-23T10:18:00Z') / 1000 });
    expect(await limiter.consume('b', 3)).toMatchObject({ allowed: true, remaining: 2 });
    now = new Date('2026-11-23T10:18:00.000Z');
    expect(await limiter.consume('a', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('429 messages: seconds until the window resets, or "later" for the monthly quota', async () => {
    const now = new Date('2026-11-23T10:17:15.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    const live = key('live', 1);
    expect((await checkRateLimits(live, { rateLimiter: limiter, monthlyQuota: null, now: () => now })).rejection).toBeNull();
    const refused = await checkRateLimits(live, { rateLimiter: limiter, monthlyQuota: null, now: () => now });
    expect(refused.rejection?.message).toBe('Rate limit exceeded. Try again in 45 seconds.');
    expect(refused.rejection?.retryAfterSeconds).toBe(45);

    const quotaLimiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    const big = key('live', 100);
    const deps = { rateLimiter: quotaLimiter, monthlyQuota: 2, now: () => now };
    expect((await checkRateLimits(big, deps)).rejection).toBeNull();
    expect((await checkRateLimits(big, deps)).rejection).toBeNull();
    const over = await checkRateLimits(big, deps);
    expect(over.rejection?.message).toBe('Rate limit exceeded. Try again later.');
    expect(over.window).toMatchObject({ allowed: true, limit: 100 });
    // Test keys are not billed: the monthly quota does not apply to them.
    expect((await checkRateLimits(key('test', 100), deps)).rejection).toBeNull();
  });
});

describe('monthly quota early in a long month', () => {
  it('keeps counting when the month ends more than 24.8 days away (beyond what Node timers hold)', async () => {
    const now = () => new Date('2026-03-01T00:00:05.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now });
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: true, remaining: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await limiter.consumeMonthly('project', 2)).toMatchObject({ allowed: false });
  });
});
