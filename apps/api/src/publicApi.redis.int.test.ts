import { expect, it } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { useRedisApiNodes } from './testing/redisApiNodes.js';

// The public API on the distributed profile's Redis adapters (read model + shared rate limits).

describeWithBackend('redis', 'public API on Redis', (url) => {
  const nodes = useRedisApiNodes(url, 'api-test');
  const now = () => new Date('2026-11-23T10:17:30.000Z');
  const start = (redis?: RedisClientType) => nodes.start(now, redis);

  it('two API nodes on one Redis share a key limit: exactly `limit` successes, then 429 with headers', async () => {
    const a = await start();
    const b = await start();
    await a.collection('shoes');
    await a.item('shoes', 'runner', { size: 42 });
    const { raw } = await a.key({ rateLimit: 10 });
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).get('/public/data/runner', { 'X-API-Key': raw })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(6);
    for (const r of limited) {
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      // The Redis server's clock, not the nodes' fake one: the burst leaves the window a minute later.
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter === 59 || retryAfter === 60).toBe(true);
      expect(await r.json()).toEqual({ error: 'Too Many Requests', message: `Rate limit exceeded. Try again in ${retryAfter} seconds.` });
    }
  });

  it('Redis unreachable: 503 JSON, never 500; /readyz 503', async () => {
    const h0 = await start();
    const { raw } = await h0.key();
    const dead = createClient({ url, socket: { reconnectStrategy: false } }) as RedisClientType;
    await dead.connect();
    const h = await start(dead);
    dead.destroy();
    const res = await h.get('/public/data/runner', { 'X-API-Key': raw });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'Service Unavailable', message: 'Service temporarily unavailable, try again shortly' });
    expect((await h.get('/readyz')).status).toBe(503);
  });
});
