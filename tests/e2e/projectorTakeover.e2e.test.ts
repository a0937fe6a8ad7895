import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, createRedisStores, type RedisReadModelClient } from '@pubstream/read-model';
import { describeWithBackend, startLocalRedis, type LocalRedis } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import { startDistributedCluster, type DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';
import { eventually, sleep } from '@pubstream/testing';
import type { NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';
import { scrapeProjector } from '../../apps/cli/src/distributed/testing/projectorScrape.js';
import { differencesFromRebuild } from '../../apps/cli/src/distributed/testing/rebuildComparison.js';
import { startWriteLoad, type WriteLoad } from '../../apps/cli/src/distributed/testing/writeLoad.js';

// Issue 23: how fast a standby projector takes over, on real processes (admin, two projectors with
// the default lease TTL, Redis of the test's own, Kafka) while writes flow at 10/s. kill -9 of the
// active one: the standby applies new writes within 3 s (the lease's TTL, 2 s, plus one standby
// poll). SIGTERM: the lease is released at once and the standby applies within 1 s.

const ITEMS = Array.from({ length: 10 }, (_, i) => `t${i}`);

describeWithBackend('kafka', 'projector takeover timing', (brokers) => {
  let redis: LocalRedis;
  let cluster: DistributedCluster;
  let client: RedisReadModelClient;
  let load: WriteLoad | null = null;

  const activeOf = async (nodes: readonly NodeProcess[]): Promise<NodeProcess | undefined> => {
    const readings = await Promise.all(nodes.map((node) => scrapeProjector(node.url)));
    const active = nodes.filter((_, i) => readings[i]?.active === true);
    const standing = nodes.filter((_, i) => readings[i]?.active === false);
    return active.length === 1 && standing.length === nodes.length - 1 ? active[0] : undefined;
  };

  /** ms from `signalAt` until the first write sent after it is in the read model. */
  const appliedAfter = async (signalAt: number): Promise<number> => {
    const live = createRedisStores(client);
    const write = await eventually('a write after the signal', async () => load!.writes.find((w) => w.sentAt > signalAt), 5_000, 5);
    return eventually(
      `write n=${write.n} to be applied`,
      async () => {
        const item = await live.readModel.getItem(write.dataId);
        return typeof item?.data.n === 'number' && item.data.n >= write.n ? Date.now() - signalAt : undefined;
      },
      20_000,
      20,
    );
  };

  beforeAll(async () => {
    redis = await startLocalRedis();
    // The cluster sets no PROJECTOR_LEASE_TTL_MS here: the default is what is measured.
    cluster = await startDistributedCluster({ brokers, redisUrl: redis.url, apis: 0, projectors: 2, env: { PROJECTOR_LEASE_TTL_MS: '' } });
    client = await connectRedis(redis.url, () => {});
    await cluster.adminApi('POST', '/admin/collections', { slug: 'take', name: 'Takeover' });
    load = startWriteLoad({ adminUrl: cluster.admin.url, token: ADMIN_TOKEN, collection: 'take', dataIds: ITEMS, perSecond: 10 });
  }, 120_000);

  afterAll(async () => {
    await load?.stop();
    await cluster?.stop();
    await client?.close();
    await redis?.stop();
  }, 60_000);

  it('kill -9 of the active projector: the standby applies new writes within 3 s; SIGTERM: within 1 s; nothing skipped', async () => {
    const first = await eventually('one active projector and one standby', () => activeOf(cluster.projectors), 30_000, 100);
    const standby = cluster.projectors.find((node) => node !== first)!;
    await sleep(1_000);

    const killedAt = Date.now();
    await first.kill();
    const afterKillMs = await appliedAfter(killedAt);
    expect(await activeOf([standby])).toBe(standby);

    const next = await cluster.startProjector();
    await eventually('the new projector to stand by', () => activeOf([standby, next]), 30_000, 100);
    await sleep(1_000);
    const signalledAt = Date.now();
    standby.child.kill('SIGTERM');
    const afterTermMs = await appliedAfter(signalledAt);
    expect(await standby.exited).toBe(0);
    expect(standby.output()).toContain('projector lease released');
    await load!.stop();

    const writes = load!.writes;
    expect(writes.filter((w) => w.status === null || w.status >= 300)).toEqual([]);
    expect(await differencesFromRebuild(cluster.env.EVENT_STORE_URL!, client)).toEqual([]);
    console.log(`[takeover] kill -9: standby applied ${afterKillMs} ms after the kill; SIGTERM: ${afterTermMs} ms after the signal; ${writes.length} writes, all 2xx`);
    expect(afterKillMs).toBeLessThanOrEqual(3_000);
    expect(afterTermMs).toBeLessThanOrEqual(1_000);
  }, 120_000);
});
