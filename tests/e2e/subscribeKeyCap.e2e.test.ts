import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { createRedisStreamSlots, type StreamSlots } from '@pubstream/access';
import { connectRedis, createMemoryStores, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend } from '@pubstream/testing';
import { openSse, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { createSubscribeTestWorld, type SubscribeTestWorld } from '../../apps/api/src/subscribe/testing/subscribeTestWorld.js';

/**
 * The per-key cap on concurrent streams counts the streams of every API node (issue 15, finding
 * 8): two API apps over real HTTP, each with its own Redis connection to one real Redis. A node that
 * dies stops refreshing its slots and says nothing more; its streams are released within seconds.
 */

const worlds: SubscribeTestWorld[] = [];
const clients: SseTestClient[] = [];
const redisClients: RedisReadModelClient[] = [];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const world of worlds.splice(0)) await world.close();
  for (const client of redisClients.splice(0)) await client.close();
});

/** Slots of a node that can die: after crash() it neither refreshes nor releases anything, like a SIGKILLed process. */
const crashable = (slots: StreamSlots): StreamSlots & { crash(): void } => {
  let dead = false;
  return {
    acquire: (keyId, streamId, limit) => slots.acquire(keyId, streamId, limit),
    release: async (keyId, streamId) => {
      if (!dead) await slots.release(keyId, streamId);
    },
    refresh: async () => {
      if (!dead) await slots.refresh();
    },
    count: (keyId) => slots.count(keyId),
    crash: () => {
      dead = true;
    },
  };
};

describeWithBackend('redis', 'per-key stream cap across two API nodes sharing Redis', (url) => {
  it('holds across both nodes; a node that dies frees its streams within seconds', async () => {
    const keyPrefix = `test:streams:${randomUUID()}:`;
    // Both nodes read the same data (as two API nodes read one Redis read model).
    const stores = createMemoryStores();
    const node = async () => {
      const redis = await connectRedis(url, () => {});
      redisClients.push(redis);
      const slots = crashable(createRedisStreamSlots({ client: redis, keyPrefix, ttlMs: 2_000 }));
      const world = await createSubscribeTestWorld({ stores: { ...stores, close: async () => {} }, maxStreamsPerKey: 3, streamSlots: slots, slotHeartbeatMs: 500 });
      worlds.push(world);
      return { world, slots };
    };
    const a = await node();
    const b = await node();
    const { apiKey } = await a.world.createKey();
    await a.world.putCollection('c');
    const open = async (world: SubscribeTestWorld) => {
      const client = await openSse(world.subscribeUrl({ apiKey, collections: 'c' }));
      clients.push(client);
      return client;
    };

    const onA = [await open(a.world), await open(a.world)];
    expect(onA.map((client) => client.status)).toEqual([200, 200]);
    expect((await open(b.world)).status).toBe(200);
    // The fourth stream is refused whichever node it reaches.
    for (const world of [a.world, b.world]) {
      const refused = await open(world);
      expect(refused.status).toBe(429);
      expect(JSON.parse(await refused.body()).message).toMatch(/^Too many concurrent streams for this API key: the business plan allows 3/);
    }
    // The heartbeats keep the slots well past their TTL.
    await sleep(3_000);
    expect((await open(b.world)).status).toBe(429);

    // Node A dies: no more heartbeats, no releases (its clients see their connections drop).
    a.slots.crash();
    for (const client of onA) client.close();
    const crashedAt = Date.now();
    let reopened: SseTestClient | undefined;
    while (reopened?.status !== 200) {
      expect(Date.now() - crashedAt).toBeLessThan(15_000);
      await sleep(200);
      reopened = await open(b.world);
    }
    // Released after about the TTL (2 s), both of A's slots.
    expect((await open(b.world)).status).toBe(200);
    expect((await open(b.world)).status).toBe(429);
  });
});
