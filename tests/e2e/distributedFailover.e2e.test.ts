import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { compareReadModels, rebuildReadModels } from '@pubstream/projector';
import { connectRedis, createRedisStores, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend, startLocalRedis, eventually, type LocalRedis } from '@pubstream/testing';
import { openSse, type ReceivedEvent, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { FAULT_EXIT_CODE } from '../../apps/cli/src/distributed/index.js';
import { startDistributedCluster, type DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';
import type { NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';

// Issue 7: projector failover and crashes between a read-model write and its publish, on real
// processes (two API nodes, an admin, projectors) with real Redis and Kafka.

const ORIGIN = 'https://shop.example.com';
const ITEMS = ['alpha', 'beta', 'gamma'];
const isUpdate = (event: ReceivedEvent) => event.event === 'update' && typeof event.data?.dataId === 'string' && ITEMS.includes(event.data.dataId);

/** The last role line a projector logged says whether it is the active one. */
const isActive = (node: NodeProcess): boolean => {
  const output = node.output();
  return node.isRunning() && output.lastIndexOf('"msg":"projector active"') > output.lastIndexOf('"msg":"projector standby"');
};

describeWithBackend('kafka', 'projector failover and crashes in the distributed profile', (brokers) => {
  let redis: LocalRedis;
  let cluster: DistributedCluster;
  let client: RedisReadModelClient;
  let key: string;
  const clients: SseTestClient[] = [];

  const subscribeAll = async (): Promise<SseTestClient[]> => {
    const subscribers = await Promise.all(
      cluster.apis.map((node) => openSse(`${node.url}/subscribe?${new URLSearchParams({ apiKey: key, dataIds: ITEMS.join(','), collections: 'fail' }).toString()}`, { Origin: ORIGIN })),
    );
    clients.push(...subscribers);
    for (const subscriber of subscribers) {
      expect(subscriber.status).toBe(200);
      for (const dataId of ITEMS) await subscriber.waitFor((event) => isUpdate(event) && event.data.dataId === dataId, `snapshot of ${dataId}`);
    }
    return subscribers;
  };

  /** Each item's n values as this subscriber received them, from `from` on. */
  const received = (subscriber: SseTestClient, dataId: string): number[] =>
    subscriber.events.filter((event) => isUpdate(event) && event.data.dataId === dataId).map((event) => event.data.data.n as number);

  const expectEveryVersionOnce = async (subscribers: SseTestClient[], last: Record<string, number>, first: Record<string, number>) => {
    for (const subscriber of subscribers) {
      for (const dataId of ITEMS) {
        await subscriber.waitFor((event) => isUpdate(event) && event.data.dataId === dataId && event.data.data.n === last[dataId], `${dataId} n = ${last[dataId]}`);
        const ns = received(subscriber, dataId);
        const start = ns.indexOf(first[dataId]!);
        expect(start).toBeGreaterThanOrEqual(0);
        // Every committed version after the snapshot, once each, in order: nothing lost, nothing twice.
        expect(ns.slice(start)).toEqual(Array.from({ length: last[dataId]! - first[dataId]! + 1 }, (_, i) => first[dataId]! + i));
      }
    }
  };

  const expectEqualsFreshRebuild = async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(cluster.env.EVENT_STORE_URL!.replace(/^sqlite:/, '')));
    try {
      const live = createRedisStores(client);
      const head = await eventStore.headPosition();
      await eventually('the projector to catch up', async () => ((await live.projections.getCheckpoint('projector')) >= head ? true : undefined), 30_000, 100);
      const rebuilt = createRedisStores(client, { namespace: `rebuilt-${randomUUID()}` });
      await rebuildReadModels({ eventStore, target: rebuilt });
      expect(await compareReadModels(live, rebuilt)).toEqual([]);
    } finally {
      await eventStore.close();
    }
  };

  beforeAll(async () => {
    redis = await startLocalRedis();
    cluster = await startDistributedCluster({ brokers, redisUrl: redis.url, apis: 2, projectors: 2, env: { PROJECTOR_LEASE_TTL_MS: '1000' } });
    client = await connectRedis(redis.url, () => {});
    await cluster.adminApi('POST', '/admin/collections', { slug: 'fail', name: 'Failover' });
    for (const dataId of ITEMS) await cluster.adminApi('PUT', `/admin/collections/fail/items/${dataId}`, { data: { n: 0 } });
    ({ key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'failover', type: 'live', allowedDomains: ['shop.example.com'] }));
  }, 120_000);

  afterEach(() => {
    for (const subscriber of clients.splice(0)) subscriber.close();
  });

  afterAll(async () => {
    await cluster?.stop();
    await client?.close();
    await redis?.stop();
  }, 60_000);

  it('SIGKILL of the active projector during writes: the standby takes over, nothing lost or applied twice, subscribers keep receiving', async () => {
    const active = await eventually('one active projector', async () => cluster.projectors.find(isActive), 30_000);
    const standby = cluster.projectors.find((node) => node !== active)!;
    const subscribers = await subscribeAll();
    const first: Record<string, number> = Object.fromEntries(ITEMS.map((dataId) => [dataId, 0]));
    const last = { ...first };
    for (let write = 1; write <= 60; write++) {
      const dataId = ITEMS[write % ITEMS.length]!;
      last[dataId]! += 1;
      await cluster.adminApi('PUT', `/admin/collections/fail/items/${dataId}`, { data: { n: last[dataId] } });
      if (write === 20) await active.kill();
    }
    expect(isActive(standby)).toBe(true);
    expect(standby.output()).toContain('projector lease acquired');
    await expectEveryVersionOnce(subscribers, last, first);
    await expectEqualsFreshRebuild();
  });

  it('killed between a read-model write and its publish, 20 times: every committed version still reaches the subscribers', async () => {
    const subscribers = await subscribeAll();
    const live = createRedisStores(client);
    const first: Record<string, number> = {};
    for (const dataId of ITEMS) first[dataId] = (await live.readModel.getItem(dataId))!.data.n as number;
    const last = { ...first };

    // From now on every projector exits (code 86) at random right after a write and before its
    // publish; a supervisor keeps two running until 20 such crashes happened, then starts a clean one.
    for (const projector of cluster.projectors) await projector.stop();
    let crashes = 0;
    let supervising = true;
    const supervise = async (): Promise<void> => {
      while (supervising) {
        // Not waiting for /healthz: a faulty projector may exit before it answers, and the stop
        // below must see every projector started so far.
        const projector = await cluster.startProjector(crashes < 20 ? { PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH: '0.5' } : {}, false);
        const code = await projector.exited;
        if (code === FAULT_EXIT_CODE) crashes++;
        else if (supervising) throw new Error(`projector exited with ${String(code)}: ${projector.output().slice(-2_000)}`);
      }
    };
    const supervisors = [supervise(), supervise()];
    for (let write = 0; crashes < 20; write++) {
      if (write > 400) throw new Error(`only ${crashes} crashes after 400 writes`);
      const dataId = ITEMS[write % ITEMS.length]!;
      last[dataId]! += 1;
      await cluster.adminApi('PUT', `/admin/collections/fail/items/${dataId}`, { data: { n: last[dataId] } });
    }
    // A few more writes once the clean projectors take over.
    for (const dataId of ITEMS) {
      last[dataId]! += 1;
      await cluster.adminApi('PUT', `/admin/collections/fail/items/${dataId}`, { data: { n: last[dataId] } });
    }
    await expectEveryVersionOnce(subscribers, last, first);
    supervising = false;
    for (const projector of cluster.projectors) await projector.stop();
    await Promise.all(supervisors);
    expect(crashes).toBeGreaterThanOrEqual(20);
    console.log(`[crash before publish] ${crashes} crashes between write and publish; every version of ${JSON.stringify(last)} reached both nodes' subscribers`);
  }, 240_000);
});
