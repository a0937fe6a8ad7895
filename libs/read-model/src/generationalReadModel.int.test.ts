import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RedisClientType } from 'redis';
import { describeWithBackend } from '@pubstream/testing';
import {
  createGenerationalRedisReadModel,
  dropGeneration,
  generationPointerKey,
  listGenerations,
  switchGeneration,
} from './generationalReadModel.js';
import { FencedError, type ItemRecord, type ReadModel } from './readModel.js';
import { connectRedis } from './redisConnection.js';
import { createRedisReadModel, type RedisReadModelClient } from './redisReadModel.js';
import { testReadModelContract } from './testing/index.js';

const item = (dataId: string, title: string, version = 1): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'posts',
  data: { title },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
});

const seed = async (model: ReadModel, titles: string[], position: number): Promise<void> => {
  await model.apply(
    [
      { kind: 'collection.put', collection: { slug: 'posts', name: 'Posts', sortableFields: [], createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version: 1 } },
      ...titles.map((title, i) => ({ kind: 'item.put' as const, item: item(`d${i}`, title) })),
    ],
    { projection: 'projector', position },
  );
};

describeWithBackend('redis', 'generational redis read model', (url) => {
  let client: RedisClientType;
  beforeAll(async () => {
    client = (await connectRedis(url, () => {})) as RedisClientType;
  });
  afterAll(async () => {
    await client.close();
  });
  // A second client per model: close() closes the client it was given.
  const ownClient = (): Promise<RedisReadModelClient> => connectRedis(url, () => {});

  testReadModelContract('redis generational', async () => createGenerationalRedisReadModel(await ownClient(), { root: `t-${randomUUID()}` }), { numRuns: 10 });

  it('serves the root namespace until a switch, then the new generation after one SET; usage stays across generations', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisReadModel(client, { namespace: root }), ['old'], 5);
    const model = await createGenerationalRedisReadModel(await ownClient(), { root, refreshMs: 60_000 });
    try {
      expect(model.activeGeneration()).toBe(root);
      expect((await model.getItem('d0'))?.data).toEqual({ title: 'old' });
      await model.recordUsage([{ keyId: 'k1', at: new Date('2026-01-01T10:00:00Z'), count: 3 }]);

      // A half-built generation beside the live one is invisible to readers.
      const next = `${root}-g1`;
      const building = createRedisReadModel(client, { namespace: next });
      await seed(building, ['new', 'second'], 4);
      expect(await model.countItems('posts')).toBe(1);

      expect(await switchGeneration(client, root, next)).toBe(root);
      expect(await client.get(generationPointerKey(root))).toBe(next);
      // Cached until refreshed (periodically, or now when asked).
      expect(model.activeGeneration()).toBe(root);
      expect(await model.refresh()).toBe(next);
      expect((await model.getItem('d0'))?.data).toEqual({ title: 'new' });
      expect(await model.countItems('posts')).toBe(2);
      expect(await model.getCheckpoint('projector')).toBe(4);
      expect((await model.getUsage(['k1']))[0]?.requestCount).toBe(3);

      // A fresh process reads the pointer at start.
      const other = await createGenerationalRedisReadModel(await ownClient(), { root });
      expect(other.activeGeneration()).toBe(next);
      await other.close();
    } finally {
      await model.close();
    }
  });

  it('fences off a writer whose lease belongs to the old generation; it takes the lease again in the new one', async () => {
    const root = `g-${randomUUID()}`;
    const model = await createGenerationalRedisReadModel(await ownClient(), { root, refreshMs: 60_000 });
    try {
      const lease = await model.acquireLease('projector', 'p1', 10_000);
      expect(lease).not.toBeNull();
      await seed(createRedisReadModel(client, { namespace: `${root}-g2` }), ['rebuilt'], 9);
      await switchGeneration(client, root, `${root}-g2`);
      await model.refresh();
      await expect(model.apply([{ kind: 'item.put', item: item('x', 'late', 1) }], { projection: 'projector', position: 10 }, { lease: lease ?? undefined })).rejects.toBeInstanceOf(FencedError);
      expect(await model.renewLease(lease!, 10_000)).toBe(false);
      const again = await model.acquireLease('projector', 'p1', 10_000);
      expect(again).not.toBeNull();
      await model.apply([{ kind: 'item.put', item: item('x', 'late', 1) }], { projection: 'projector', position: 10 }, { lease: again ?? undefined });
      expect(await model.getCheckpoint('projector')).toBe(10);
      expect((await model.getItem('x'))?.data).toEqual({ title: 'late' });
    } finally {
      await model.close();
    }
  });

  it('lists generations and drops the old one (keeping the pointer and usage under the root), never the active one', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisReadModel(client, { namespace: root }), Array.from({ length: 1200 }, (_, i) => `t${i}`), 3);
    await createRedisReadModel(client, { namespace: root }).recordUsage([{ keyId: 'k1', at: new Date('2026-01-01T10:00:00Z'), count: 2 }]);
    await client.set(`${root}:rl:203.0.113.9`, '5');
    const next = `${root}-g7`;
    await seed(createRedisReadModel(client, { namespace: next }), ['only'], 3);
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
    const model = await createGenerationalRedisReadModel(await ownClient(), { root });
    try {
      expect(await model.countItems('posts')).toBe(1);
      expect((await model.getUsage(['k1']))[0]?.requestCount).toBe(2);
    } finally {
      await model.close();
    }
    // The next rebuild may drop the first generation once the root is active again.
    await switchGeneration(client, root, root);
    await dropGeneration(client, root, next);
    expect(await client.keys(`${next}:*`)).toEqual([]);
  });
});

describeWithBackend('redisCluster', 'generational redis read model (cluster)', (urls) => {
  let cluster: RedisReadModelClient;
  beforeAll(async () => {
    cluster = await connectRedis(urls, () => {});
  });
  afterAll(async () => {
    await cluster.close();
  });

  it('switches generations and drops the old one from every master (keys of many slots)', async () => {
    const root = `g-${randomUUID()}`;
    await seed(createRedisReadModel(cluster, { namespace: root }), Array.from({ length: 300 }, (_, i) => `t${i}`), 3);
    const next = `${root}-g1`;
    await seed(createRedisReadModel(cluster, { namespace: next }), ['only'], 3);
    const model = await createGenerationalRedisReadModel(await connectRedis(urls, () => {}), { root, refreshMs: 60_000 });
    try {
      expect(await model.countItems('posts')).toBe(300);
      await switchGeneration(cluster, root, next);
      await model.refresh();
      expect(await model.countItems('posts')).toBe(1);
      expect(await listGenerations(cluster, root)).toEqual([
        { namespace: root, active: false },
        { namespace: next, active: true },
      ]);
      expect(await dropGeneration(cluster, root, root)).toBeGreaterThan(300);
      for (let i = 0; i < 300; i += 37) expect(await createRedisReadModel(cluster, { namespace: root }).getItem(`d${i}`)).toBeNull();
      expect(await listGenerations(cluster, root)).toEqual([{ namespace: next, active: true }]);
      expect(await model.countItems('posts')).toBe(1);
    } finally {
      await model.close();
    }
  });
});
