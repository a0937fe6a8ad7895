import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RedisClientType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import { createGenerationalRedisStores } from './generationalStores.js';
import { dropGeneration, listGenerations, switchGeneration } from './generations.js';
import { FencedError, type ProjectionStore } from '../projectionStore.js';
import type { ItemRecord } from '../records.js';
import { connectRedis, type RedisReadModelClient } from './redisConnection.js';
import { generationPointerKey } from './redisKeys.js';
import { createRedisStores } from './redisStores.js';
import { testStoresContract } from '../testing/index.js';

const item = (dataId: string, title: string, version = 1): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'posts',
  data: { title },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
  position: version,
});

const seed = async (projections: ProjectionStore, titles: string[], position: number): Promise<void> => {
  await projections.apply(
    [
      { kind: 'collection.put', collection: { slug: 'posts', name: 'Posts', sortableFields: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version: 1, position: 1 } },
      ...titles.map((title, i) => ({ kind: 'item.put' as const, item: item(`d${i}`, title) })),
    ],
    { projection: 'projector', position },
  );
};

describeWithBackend('redis', 'generational redis stores', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = (await connectRedis(url, () => {})) as RedisClientType;
  });
  afterAll(async () => {
    await client.close();
  });
  // A second client per model: close() closes the client it was given.
  const ownClient = (): Promise<RedisReadModelClient> => connectRedis(url, () => {});

  testStoresContract('redis generational', async () => createGenerationalRedisStores(await ownClient(), { root: `t-${randomUUID()}` }), { numRuns: 10 });

  it('serves the root namespace until a switch, then the new generation after one SET; usage stays across generations', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisStores(client, { namespace: root }).projections, ['old'], 5);
    const model = await createGenerationalRedisStores(await ownClient(), { root, refreshMs: 60_000 });
    try {
      expect(model.activeGeneration()).toBe(root);
      expect((await model.readModel.getItem('d0'))?.data).toEqual({ title: 'old' });
      await model.usage.recordUsage([{ keyId: 'k1', at: new Date('2026-01-01T10:00:00Z'), count: 3 }]);

      // A half-built generation beside the live one is invisible to readers.
      const next = `${root}-g1`;
      const building = createRedisStores(client, { namespace: next });
      await seed(building.projections, ['new', 'second'], 4);
      expect(await model.readModel.countItems('posts')).toBe(1);

      expect(await switchGeneration(client, root, next)).toBe(root);
      expect(await client.get(generationPointerKey(root))).toBe(next);
      // Cached until refreshed (periodically, or now when asked).
      expect(model.activeGeneration()).toBe(root);
      expect(await model.refresh()).toBe(next);
      expect((await model.readModel.getItem('d0'))?.data).toEqual({ title: 'new' });
      expect(await model.readModel.countItems('posts')).toBe(2);
      expect(await model.projections.getCheckpoint('projector')).toBe(4);
      expect((await model.usage.getUsage(['k1']))[0]?.requestCount).toBe(3);

      // A fresh process reads the pointer at start.
      const other = await createGenerationalRedisStores(await ownClient(), { root });
      expect(other.activeGeneration()).toBe(next);
      await other.close();
    } finally {
      await model.close();
    }
  });

  it('fences off a writer whose lease belongs to the old generation; it takes the lease again in the new one', async () => {
    const root = `g-${randomUUID()}`;
    const model = await createGenerationalRedisStores(await ownClient(), { root, refreshMs: 60_000 });
    try {
      const lease = await model.projections.acquireLease('projector', 'p1', 10_000);
      expect(lease).not.toBeNull();
      await seed(createRedisStores(client, { namespace: `${root}-g2` }).projections, ['rebuilt'], 9);
      await switchGeneration(client, root, `${root}-g2`);
      await model.refresh();
      await expect(model.projections.apply([{ kind: 'item.put', item: item('x', 'late', 1) }], { projection: 'projector', position: 10 }, { lease: lease ?? undefined })).rejects.toBeInstanceOf(FencedError);
      expect(await model.projections.renewLease(lease!, 10_000)).toBe(false);
      const again = await model.projections.acquireLease('projector', 'p1', 10_000);
      expect(again).not.toBeNull();
      await model.projections.apply([{ kind: 'item.put', item: item('x', 'late', 1) }], { projection: 'projector', position: 10 }, { lease: again ?? undefined });
      expect(await model.projections.getCheckpoint('projector')).toBe(10);
      expect((await model.readModel.getItem('x'))?.data).toEqual({ title: 'late' });
    } finally {
      await model.close();
    }
  });

  it('lists generations and drops the old one (keeping the pointer and usage under the root), never the active one', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisStores(client, { namespace: root }).projections, Array.from({ length: 1200 }, (_, i) => `t${i}`), 3);
    await createRedisStores(client, { namespace: root }).usage.recordUsage([{ keyId: 'k1', at: new Date('2026-01-01T10:00:00Z'), count: 2 }]);
    await client.set(`${root}:rl:203.0.113.9`, '5');
    const next = `${root}-g7`;
    await seed(createRedisStores(client, { namespace: next }).projections, ['only'], 3);
    await switchGeneration(client, root, next);

    expect(await listGenerations(client, root)).toEqual([
      { namespace: root, active: false },
      { namespace: next, active: true },
    ]);
    await expect(dropGeneration(client, root, next)).rejects.toThrow(/active/);
    expect(await dropGeneration(client, root, root, { batch: 100 })).toBeGreaterThan(1200);

    const left = await client.keys(`${root}:*`);
    expect(left.every((key) => key === generationPointerKey(root) || key.startsWith(`${root}:{u:`) || key === `${root}:rl:203.0.113.9`)).toBe(true);
    expect(await client.get(`${root}:rl:203.0.113.9`)).toBe('5');
    const model = await createGenerationalRedisStores(await ownClient(), { root });
    try {
      expect(await model.readModel.countItems('posts')).toBe(1);
      expect((await model.usage.getUsage(['k1']))[0]?.requestCount).toBe(2);
    } finally {
      await model.close();
    }
    // The next rebuild may drop the first generation once the root is active again.
    await switchGeneration(client, root, root);
    await dropGeneration(client, root, next);
    expect(await client.keys(`${next}:*`)).toEqual([]);
  });
});

describeWithBackend('redisCluster', 'generational redis stores (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });

  it('switches generations and drops the old one from every master (keys of many slots)', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisStores(cluster, { namespace: root }).projections, Array.from({ length: 300 }, (_, i) => `t${i}`), 3);
    const next = `${root}-g1`;
    await seed(createRedisStores(cluster, { namespace: next }).projections, ['only'], 3);
    const model = await createGenerationalRedisStores(await connectRedis(urls, () => {}), { root, refreshMs: 60_000 });
    try {
      expect(await model.readModel.countItems('posts')).toBe(300);
      await switchGeneration(cluster, root, next);
      await model.refresh();
      expect(await model.readModel.countItems('posts')).toBe(1);
      expect(await listGenerations(cluster, root)).toEqual([
        { namespace: root, active: false },
        { namespace: next, active: true },
      ]);
      expect(await dropGeneration(cluster, root, root)).toBeGreaterThan(300);
      for (let i = 0; i < 300; i += 37) expect(await createRedisStores(cluster, { namespace: root }).readModel.getItem(`d${i}`)).toBeNull();
      expect(await listGenerations(cluster, root)).toEqual([{ namespace: next, active: true }]);
      expect(await model.readModel.countItems('posts')).toBe(1);
    } finally {
      await model.close();
    }
  });
});
