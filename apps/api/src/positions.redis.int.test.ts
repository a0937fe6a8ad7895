import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, createRedisStores, dropGeneration, type RedisReadModelClient } from '@pubstream/read-model';
import { describePositions } from './positions/testing/positionsSuite.js';
import { startApiHarness } from './testing/apiHarness.js';

// The same positions suite on one Redis and on a Redis Cluster (each harness in a namespace of its own).
for (const backend of ['redis', 'redisCluster'] as const) {
  describeWithBackend(backend, `positions over HTTP on ${backend}`, (url) => {
    let client: RedisReadModelClient;
    const namespaces: string[] = [];
    beforeAll(async () => {
      client = await connectRedis(url, () => {});
    });
    afterAll(async () => {
      // The shared servers keep running: leave nothing behind.
      for (const namespace of namespaces) await dropGeneration(client, 'positions-root', namespace);
      await client.close();
    });
    describePositions(backend, ({ now, resumeWindowMs, config }) => {
      const namespace = `pos-${randomUUID().slice(0, 8)}`;
      namespaces.push(namespace);
      return startApiHarness({ now, resumeWindowMs, config, stores: createRedisStores(client, { namespace, now }) });
    });
  });
}
