import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '@pubstream/read-model';
import { createMemoryRateLimiter } from './memoryRateLimiter.js';
import { checkRateLimits } from './rateLimitCheck.js';

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

describe('rate limit check', () => {
  it('429 messages: the seconds until the next request is admitted, or "later" for the monthly quota', async () => {
    let now = new Date('2026-11-23T10:17:15.000Z');
    const limiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    const live = key('live', 1);
    expect((await checkRateLimits(live, { rateLimiter: limiter, monthlyQuota: null })).rejection).toBeNull();
    now = new Date('2026-11-23T10:17:30.400Z');
    const refused = await checkRateLimits(live, { rateLimiter: limiter, monthlyQuota: null });
    expect(refused.rejection?.message).toBe('Rate limit exceeded. Try again in 45 seconds.');
    expect(refused.rejection?.retryAfterSeconds).toBe(45);
    expect(refused.window).toMatchObject({ remaining: 0, resetAt: Date.parse('2026-11-23T10:18:15Z') / 1000 });

    const quotaLimiter = createMemoryRateLimiter({ window: 'minute', now: () => now });
    const big = key('live', 100);
    const deps = { rateLimiter: quotaLimiter, monthlyQuota: 2 };
    expect((await checkRateLimits(big, deps)).rejection).toBeNull();
    expect((await checkRateLimits(big, deps)).rejection).toBeNull();
    const over = await checkRateLimits(big, deps);
    expect(over.rejection?.message).toBe('Rate limit exceeded. Try again later.');
    // 10:17:30.4 on 23 November to 1 December, rounded up: 7 days 13:42:30.
    expect(over.rejection?.retryAfterSeconds).toBe(7 * 86_400 + 13 * 3_600 + 42 * 60 + 30);
    expect(over.window).toMatchObject({ allowed: true, limit: 100 });
    // Test keys are not billed: the monthly quota does not apply to them.
    expect((await checkRateLimits(key('test', 100), deps)).rejection).toBeNull();
  });
});
