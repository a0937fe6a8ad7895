import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, type RedisReadModelClient } from './redisConnection.js';
import { dropGeneration } from './generations.js';
import { createRedisStores } from './redisStores.js';
import { testChangeHistoryContract, testStoresContract } from '../testing/index.js';

// One client per suite; each test gets its own namespace, so tests never see each other's keys.
// `wipe` deletes every key of the test's namespace: FLUSHALL as far as that test can see.
const wipeable = (client: () => RedisReadModelClient) => {
  let namespace = '';
  return {
    create: () => createRedisStores(client(), { namespace: (namespace = `t-${randomUUID()}`) }),
    wipe: async () => void (await dropGeneration(client(), 'wipe-root', namespace)),
  };
};

describeWithBackend('redis', 'redis stores (single node)', (url) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connectRedis(url, () => {});
  });
  afterAll(async () => {
    await client.close();
  });
  const subject = wipeable(() => client);
  testStoresContract('redis', async () => subject.create(), { numRuns: 25, wipe: subject.wipe });
  testChangeHistoryContract('redis', async (now) => createRedisStores(client, { namespace: `t-${randomUUID()}`, now }));
});

describeWithBackend('redisCluster', 'redis stores (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });
  const subject = wipeable(() => cluster);
  testStoresContract('redis cluster', async () => subject.create(), { numRuns: 15, wipe: subject.wipe });
  testChangeHistoryContract('redis cluster', async (now) => createRedisStores(cluster, { namespace: `t-${randomUUID()}`, now }));
});
