import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, type RedisReadModelClient } from './redisConnection.js';
import { createRedisStores } from './redisStores.js';
import { testStoresContract } from '../testing/index.js';

// The contract again with tiny write calls, so that batches are cut into many chunks and every
// guarantee (order per record, per-op answers, fencing, checkpoint last) is seen across chunks.
describeWithBackend('redis', 'redis stores in chunks of 3 writes (single node)', (url) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await client.close();
  });
  testStoresContract('redis, chunks of 3', async () => createRedisStores(client, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 3 } }), { numRuns: 15 });
});

describeWithBackend('redisCluster', 'redis stores in chunks of 2 writes (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });
  testStoresContract('redis cluster, chunks of 2', async () => createRedisStores(cluster, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 2 } }), { numRuns: 10 });
});
