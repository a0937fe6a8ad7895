import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createClient, createCluster, type RedisClientType, type RedisClusterType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { createRedisReadModel } from './redisReadModel.js';
import { testReadModelContract } from './testing/index.js';

// The contract again with tiny write calls, so that batches are cut into many chunks and every
// guarantee (order per record, per-op answers, fencing, checkpoint last) is seen across chunks.
describeWithBackend('redis', 'redis read model in chunks of 3 writes (single node)', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = createClient({ url });
    client.on('error', () => {});
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });
  testReadModelContract('redis, chunks of 3', async () => createRedisReadModel(client, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 3 } }), { numRuns: 15 });
});

describeWithBackend('redisCluster', 'redis read model in chunks of 2 writes (cluster)', (urls) => {
  let cluster: RedisClusterType;
  beforeAll(async () => {
    cluster = createCluster({ rootNodes: urls.split(',').map((url) => ({ url })) });
    cluster.on('error', () => {});
    await cluster.connect();
  });
  afterAll(async () => {
    await cluster.close();
  });
  testReadModelContract('redis cluster, chunks of 2', async () => createRedisReadModel(cluster, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 2 } }), { numRuns: 10 });
});
