import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis } from './redisConnection.js';
import { createRedisReadModel, type RedisReadModelClient } from './redisReadModel.js';
import { testReadModelContract } from './testing/index.js';

// The contract again with tiny write calls, so that batches are cut into many chunks and every
// guarantee (order per record, per-op answers, fencing, checkpoint last) is seen across chunks.
describeWithBackend('redis', 'redis read model in chunks of 3 writes (single node)', (url) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await client.close();
  });
  testReadModelContract('redis, chunks of 3', async () => createRedisReadModel(client, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 3 } }), { numRuns: 15 });
});

describeWithBackend('redisCluster', 'redis read model in chunks of 2 writes (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });
  testReadModelContract('redis cluster, chunks of 2', async () => createRedisReadModel(cluster, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 2 } }), { numRuns: 10 });
});
