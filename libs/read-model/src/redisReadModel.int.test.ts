import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createClient, createCluster, type RedisClientType, type RedisClusterType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { createRedisReadModel } from './redisReadModel.js';
import { testReadModelContract } from './testing/index.js';

// One client per suite; each test gets its own namespace, so tests never see each other's keys.
describeWithBackend('redis', 'redis read model (single node)', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = createClient({ url });
    client.on('error', () => {});
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
  });
  testReadModelContract('redis', async () => createRedisReadModel(client, { namespace: `t-${randomUUID()}` }), { numRuns: 25 });
});

describeWithBackend('redisCluster', 'redis read model (cluster)', (urls) => {
  let cluster: RedisClusterType;
  beforeAll(async () => {
    cluster = createCluster({ rootNodes: urls.split(',').map((url) => ({ url })) });
    cluster.on('error', () => {});
    await cluster.connect();
  });
  afterAll(async () => {
    await cluster.close();
  });
  testReadModelContract('redis cluster', async () => createRedisReadModel(cluster, { namespace: `t-${randomUUID()}` }), { numRuns: 15 });
});
