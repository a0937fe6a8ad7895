import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { createMemoryStores } from '../memory/memoryStores.js';
import type { ReadModelOp } from '../projectionStore.js';
import type { Stores } from '../stores.js';
import { collectionRecord, itemRecord } from '../testing/index.js';
import { connectRedis, type RedisReadModelClient } from './redisConnection.js';
import { createRedisStores } from './redisStores.js';

// APPLY buffers a call's writes and issues them in bulk at its end (docs/read-models.md, "Batched
// writes"). These calls are large enough that one key gets several bulk commands (512 arguments
// each), touch the same items more than once, and change the collection's fields between items.
const N = 700;
const history = { at: new Date(Date.UTC(2026, 0, 1)), windowMs: 86_400_000 };
const put = (dataId: string, version: number, data: Record<string, unknown>, position: number): ReadModelOp => ({
  kind: 'item.put',
  item: itemRecord(dataId, 'big', version, data, { created: position * 1000, updated: position * 1000, position }),
});
const id = (i: number): string => `d${String(i).padStart(4, '0')}`;

/** Creates, then updates and deletes of the same items, then a field added over all of them and a few more changes, in one call. */
const oneCall = (): ReadModelOp[] => {
  const ops: ReadModelOp[] = [{ kind: 'collection.put', collection: collectionRecord('big', 1, [{ name: 'score', type: 'number' }], 1) }];
  let position = 1;
  for (let i = 0; i < N; i++) ops.push(put(id(i), 1, { score: (i * 37) % 101, title: `t${i % 13}` }, ++position));
  for (let i = 0; i < N; i += 3) ops.push(put(id(i), 2, i % 2 === 0 ? { score: -i } : { title: `u${i}` }, ++position));
  for (let i = 1; i < N; i += 10) ops.push({ kind: 'item.delete', dataId: id(i), collectionId: 'big', version: 3, position: ++position });
  const fields = [{ name: 'score', type: 'number' as const }, { name: 'title', type: 'string' as const }];
  ops.push({ kind: 'collection.put', collection: collectionRecord('big', 2, fields, ++position) });
  for (let i = 0; i < N; i += 7) ops.push(put(id(i), 4, { score: i, title: `v${i % 5}` }, ++position));
  return ops;
};

const readsOf = async (s: Stores) => {
  const pages: unknown[] = [];
  for (const sort of ['score', 'title', 'createdAt', 'updatedAt', 'dataId']) {
    for (const order of ['asc', 'desc'] as const) {
      const page = await s.readModel.getCollectionPage('big', { sort, order, offset: 0, limit: N });
      pages.push([sort, order, page?.total, page?.items.map((item) => `${item.dataId}@${item.version}`)]);
    }
  }
  const ids = Array.from({ length: N }, (_, i) => id(i));
  return {
    items: await s.readModel.getItems(ids),
    count: await s.readModel.countItems('big'),
    pages,
    changes: await s.history.collectionChanges('big', 0, 10_000),
    itemChanges: await s.history.itemChanges(ids.slice(0, 30), 0, 10_000),
  };
};

const behavesLikeMemory = (connect: () => Promise<RedisReadModelClient>) => {
  let client: RedisReadModelClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
  });

  it('one large call with repeated items and a field added midway reads exactly like the memory model, and a replay changes nothing', async () => {
    const ops = oneCall();
    const redis = createRedisStores(client, { namespace: `t-${randomUUID()}`, writeChunk: { maxEntries: 5_000, maxBytes: 64 * 1024 * 1024 } });
    const memory = createMemoryStores();
    const checkpoint = { projection: 'projector', position: ops.length + 1 };
    const expected = await memory.projections.apply(ops, checkpoint, { history });
    expect(await redis.projections.apply(ops, checkpoint, { history })).toEqual(expected);
    expect(await readsOf(redis)).toEqual(await readsOf(memory));
    expect(await redis.projections.apply(ops, checkpoint, { history })).toEqual(ops.map(() => false));
    expect(await readsOf(redis)).toEqual(await readsOf(memory));
  });
};

describeWithBackend('redis', 'APPLY write buffer (single node)', (url) => {
  describe('bulk writes', () => behavesLikeMemory(() => connectRedis(url, () => {})));
});

describeWithBackend('redisCluster', 'APPLY write buffer (cluster)', (urls) => {
  describe('bulk writes', () => behavesLikeMemory(() => connectRedis(urls, () => {})));
});
