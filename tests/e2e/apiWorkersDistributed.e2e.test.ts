import { execFileSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { describeWithBackend, eventually } from '@pubstream/testing';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';
import { connectToSomeWorker, connectToWorker, type WorkerConnection } from './support/workerConnections.js';

// `pubstream api` with API_WORKERS=2 (issue 20, "Every core"): two workers share the API node's
// port, both read Redis, the rate limit (in Redis) admits exactly its limit across them, and a
// deleted key is refused on both (within the distributed profile's cache bound).

describeWithBackend('kafka', 'pubstream api with API_WORKERS=2', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 1, projectors: 1, env: { API_WORKERS: '2' } });
  const connections: WorkerConnection[] = [];
  afterAll(() => connections.splice(0).forEach((connection) => connection.close()));

  it('serves from two worker processes with the limits of one node', async () => {
    const { cluster } = setup;
    const [api] = cluster.apis;
    if (!api) throw new Error('no API node');
    expect(execFileSync('pgrep', ['-P', String(api.pid)], { encoding: 'utf8' }).trim().split('\n')).toHaveLength(2);
    await cluster.adminApi('POST', '/admin/collections', { slug: 'shop', name: 'Shop' });
    await cluster.adminApi('PUT', '/admin/collections/shop/items/teapot', { data: { price: 39 } });
    const { key, keyId } = await cluster.adminApi<{ key: string; keyId: string }>('POST', '/admin/keys', { name: 'w', type: 'live', allowedDomains: [], rateLimit: 4 });
    const first = await connectToSomeWorker(api.url);
    const second = await connectToWorker(api.url, first.worker === '1' ? '2' : '1');
    connections.push(first, second);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await (i % 2 === 0 ? first : second).get('/public/data/teapot', { 'X-API-Key': key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    // Distributed semantics, as between API nodes: each worker's key cache hears the deletion on Kafka.
    await cluster.adminApi('DELETE', `/admin/keys/${keyId}`);
    for (const connection of [first, second]) {
      await eventually(`401 from worker ${connection.worker}`, async () => ((await connection.get('/public/data/teapot', { 'X-API-Key': key })).status === 401 ? true : undefined), 5_000, 20);
    }
  }, 120_000);
});
