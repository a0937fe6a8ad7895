import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis } from './redisConnection.js';
import { createRedisReadModel, type RedisReadModelClient } from './redisReadModel.js';
import { testReadModelContract } from './testing/index.js';

// One client per suite; each test gets its own namespace, so tests never see each other's keys.
describeWithBackend('redis', 'redis read model (single node)', (url) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await client.close();
  });
  testReadModelContract('redis', async () => createRedisReadModel(client, { namespace: `t-${randomUUID()}` }), { numRuns: 25 });
});

describeWithBackend('redisCluster', 'redis read model (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });
  testReadModelContract('redis cluster', async () => createRedisReadModel(cluster, { namespace: `t-${randomUUID()}` }), { numRuns: 15 });
});
