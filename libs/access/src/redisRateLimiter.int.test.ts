import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from 'redis';
import { randomUUID } from 'node:crypto';
import { describeWithBackend } from '@pubstream/testing';
import { createRedisRateLimiter } from './redisRateLimiter.js';

describeWithBackend('redis', 'redis rate limiter', (url) => {
  const client = createClient({ url });
  const prefix = `test-rl-${randomUUID()}`;
  beforeAll(async () => {
    await client.connect();
  });
  afterAll(async () => {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await client.del(keys);
    client.destroy();
  });

  it('two limiters on one Redis share the count: exactly `limit` requests pass in a window', async () => {
    const now = () => new Date('2026-11-23T10:17:30.000Z');
    const a = createRedisRateLimiter({ client, window: 'minute', now, keyPrefix: prefix });
    const b = createRedisRateLimiter({ client, window: 'minute', now, keyPrefix: prefix });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).consume('key-1', 20)));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(results.every((r) => r.resetAt === Date.parse('2026-11-23T10:18:00Z') / 1000)).toBe(true);
    expect(Math.min(...results.map((r) => r.remaining))).toBe(0);
  });

  it('the monthly quota is a separate counter', async () => {
    const now = () => new Date('2026-11-23T10:17:30.000Z');
    const limiter = createRedisRateLimiter({ client, window: 'hour', now, keyPrefix: prefix });
    expect(await limiter.consumeMonthly('project', 1)).toMatchObject({ allowed: true, resetAt: Date.parse('2026-12-01T00:00:00Z') / 1000 });
    expect(await limiter.consumeMonthly('project', 1)).toMatchObject({ allowed: false });
    expect(await limiter.consume('project', 1)).toMatchObject({ allowed: true });
  });

  it('keeps answering from the in-memory insurance limiter when Redis is unreachable', async () => {
    const dead = createClient({ url, socket: { reconnectStrategy: false } });
    await dead.connect();
    dead.destroy();
    const limiter = createRedisRateLimiter({ client: dead, window: 'minute', keyPrefix: prefix });
    expect(await limiter.consume('key-2', 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('key-2', 1)).toMatchObject({ allowed: false });
  });
});
