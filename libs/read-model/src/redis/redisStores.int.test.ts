import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, type RedisReadModelClient } from './redisConnection.js';
import { createRedisStores } from './redisStores.js';
import { testStoresContract } from '../testing/index.js';

// One client per suite; each test gets its own namespace, so tests never see each other's keys.
describeWithBackend('redis', 'redis stores (single node)', (url) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await client.close();
  });
  testStoresContract('redis', async () => createRedisStores(client, { namespace: `t-${randomUUID()}` }), { numRuns: 25 });
});

describeWithBackend('redisCluster', 'redis stores (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });
  testStoresContract('redis cluster', async () => createRedisStores(cluster, { namespace: `t-${randomUUID()}` }), { numRuns: 15 });
});
