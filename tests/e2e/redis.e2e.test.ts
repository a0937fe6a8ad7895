import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackend, startLocalRedis, eventually, sleep, type LocalRedis } from '@pubstream/testing';
import { startDistributedCluster, type DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';

// Issue 5 on real processes: two `pubstream api` nodes share one Redis (read models and rate
// limits), fed by `pubstream projector`; the Redis is this file's own so that it can be killed.

describeWithBackend('kafka', 'two API processes on one Redis', (brokers) => {
  let redis: LocalRedis;
  let cluster: DistributedCluster;

  beforeAll(async () => {
    redis = await startLocalRedis({ appendonly: true });
    cluster = await startDistributedCluster({ brokers, redisUrl: redis.url, apis: 2 });
    await cluster.adminApi('POST', '/admin/collections', { slug: 'things', name: 'Things' });
    for (let i = 0; i < 30; i++) await cluster.adminApi('PUT', `/admin/collections/things/items/thing-${i}`, { data: { i } });
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await redis?.stop();
  }, 60_000);

  const get = (base: string, path: string, key: string) => fetch(`${base}${path}`, { headers: { 'X-API-Key': key } });

  it('a key limited to 100 requests per window gets exactly 100 successes across both nodes, the rest 429 with headers', async () => {
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'limited', type: 'test', rateLimit: 100 });
    const a = cluster.apis[0]!;
    const b = cluster.apis[1]!;
    // 160 requests, alternating nodes, 16 at a time.
    const responses: Response[] = [];
    for (let batch = 0; batch < 10; batch++) {
      responses.push(...(await Promise.all(Array.from({ length: 16 }, (_, i) => get(i % 2 === 0 ? a.url : b.url, '/public/data/thing-1', key)))));
    }
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60);
    const nowSeconds = Date.now() / 1000;
    for (const response of responses) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('100');
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(nowSeconds - 5);
      expect(reset).toBeLessThanOrEqual(nowSeconds + 61);
      if (response.status === 429) {
        expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        const body = await response.json();
        expect(body).toEqual({ error: expect.any(String), message: expect.stringMatching(/^Rate limit exceeded/) });
      } else {
        expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
        await response.text();
      }
    }
    // Both nodes served some of the 100: the limit really is shared.
    const okByNode = [0, 1].map((node) => responses.filter((response, i) => i % 2 === node && response.status === 200).length);
    expect(okByNode.every((count) => count > 0)).toBe(true);
  });

  it('Redis restarted in the middle of a read load: only 200 and 503 {error, message}, no 500, no crash, full recovery', async () => {
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'reader', type: 'test', rateLimit: 50_000 });
    const seen = new Map<number, number>();
    const bad: string[] = [];
    let running = true;
    let phase: 'before' | 'down' | 'after' = 'before';
    const downStatuses = new Set<number>();
    const worker = async (node: { url: string }, w: number) => {
      for (let i = 0; running; i++) {
        const path = i % 3 === 0 ? '/public/collections/things/data?limit=5' : `/public/data/thing-${(w + i) % 30}`;
        let status: number;
        let text: string;
        try {
          const response = await get(node.url, path, key);
          status = response.status;
          text = await response.text();
        } catch (error) {
          bad.push(`network error ${(error as Error).message}`);
          await sleep(50);
          continue;
        }
        seen.set(status, (seen.get(status) ?? 0) + 1);
        if (phase === 'down') downStatuses.add(status);
        if (status === 503) {
          const body = JSON.parse(text);
          if (typeof body.error !== 'string' || typeof body.message !== 'string') bad.push(`503 body ${text}`);
        } else if (status !== 200) {
          bad.push(`${status} ${text}`);
        }
        if (status === 503) await sleep(20);
      }
    };
    const workers = cluster.apis.flatMap((node, n) => [0, 1, 2].map((w) => worker(node, n * 3 + w)));
    await sleep(1_000);
    await redis.kill();
    phase = 'down';
    await sleep(3_000);
    await redis.restart();
    phase = 'after';
    const restartedAt = Date.now();
    // Recovery: every node answers 200 again by itself (reconnect, caches refilled).
    for (const node of cluster.apis) {
      await eventually(`200 from ${node.url} after the restart`, async () => {
        const response = await get(node.url, '/public/data/thing-1', key);
        await response.text();
        return response.status === 200 ? true : undefined;
      }, 30_000, 100);
    }
    const recoveredMs = Date.now() - restartedAt;
    const afterRecovery = new Map<number, number>();
    const countAfter = (status: number) => afterRecovery.set(status, (afterRecovery.get(status) ?? 0) + 1);
    for (let i = 0; i < 60; i++) {
      const node = cluster.apis[i % 2]!;
      const response = await get(node.url, `/public/data/thing-${i % 30}`, key);
      await response.text();
      countAfter(response.status);
    }
    running = false;
    await Promise.all(workers);

    console.log(`[redis restart] statuses during the load: ${JSON.stringify(Object.fromEntries(seen))}; both nodes answered 200 again ${recoveredMs} ms after Redis came back`);
    expect(bad).toEqual([]);
    expect([...seen.keys()].sort()).toEqual([200, 503]);
    expect(downStatuses.has(503)).toBe(true);
    expect([...afterRecovery.entries()]).toEqual([[200, 60]]);
    for (const node of cluster.apis) {
      expect(node.isRunning()).toBe(true);
      const ready = await fetch(`${node.url}/readyz`);
      expect(ready.status).toBe(200);
    }
    // The projector resumed too: a write after the outage reaches the read API.
    await cluster.adminApi('PUT', '/admin/collections/things/items/after-outage', { data: { ok: true } });
    const response = await get(cluster.apis[0]!.url, '/public/data/after-outage', key);
    expect(response.status).toBe(200);
  });
});
