import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackend, startLocalKafka, startLocalRedis, type LocalKafka, type LocalRedis } from '@pubstream/testing';
import { openSse, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import { startDistributedCluster, type DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';
import { checkFreshReads } from '../../apps/cli/src/distributed/testing/freshReads.js';
import { eventually, sleep } from '@pubstream/testing';
import { scrapeProjector, watchActiveProjectors } from '../../apps/cli/src/distributed/testing/projectorScrape.js';
import { startWriteLoad } from '../../apps/cli/src/distributed/testing/writeLoad.js';

// Issue 23 #1: the Kafka broker is killed and restarted on its port (down about 20 s) under 5
// admin writes/s, with two projectors, two API nodes and a subscriber on each. Before the fix the
// projector applied and published as one step: it sat ~18 s in one publish, lost its lease, reads
// were stale for up to 21 s and writes answered only after their 5 s read-your-writes timeout.

const ORIGIN = 'https://shop.example.com';
const ITEMS = Array.from({ length: 10 }, (_, i) => `o${i}`);

/** The highest n each item reached on a stream, reopened whenever the server ends it. */
const follow = (url: string) => {
  const latest = new Map<string, number>();
  let current: SseTestClient | null = null;
  let open = true;
  void (async () => {
    while (open) {
      current = await openSse(url, { Origin: ORIGIN }).catch(() => null);
      if (current?.status === 200) await current.ended;
      await sleep(200);
    }
  })();
  const poll = setInterval(() => {
    for (const event of current?.events ?? []) {
      if (event.event !== 'update' || typeof event.data?.data?.n !== 'number') continue;
      latest.set(event.data.dataId, Math.max(latest.get(event.data.dataId) ?? -1, event.data.data.n));
    }
  }, 20);
  return {
    latest,
    close() {
      open = false;
      clearInterval(poll);
      current?.close();
    },
  };
};

describeWithBackend('kafka', 'Kafka broker down for ~20 s under writes', () => {
  let kafka: LocalKafka | null = null;
  let redis: LocalRedis;
  let cluster: DistributedCluster;
  let unavailable = '';

  beforeAll(async () => {
    try {
      kafka = await startLocalKafka();
    } catch (error) {
      unavailable = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      console.log(`[skip] broker outage test: cannot start a local broker (${unavailable})`);
      return;
    }
    redis = await startLocalRedis();
    cluster = await startDistributedCluster({ brokers: kafka.brokers, redisUrl: redis.url, apis: 2, projectors: 2 });
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
    await redis?.stop();
    await kafka?.stop();
  }, 60_000);

  it('writes answer within 3 s, reads are fresh within 2 s on both nodes, subscribers catch up within 15 s, the lease is kept', async (context) => {
    if (unavailable !== '') context.skip(unavailable);
    await cluster.adminApi('POST', '/admin/collections', { slug: 'out', name: 'Outage' });
    for (const dataId of ITEMS) await cluster.adminApi('PUT', `/admin/collections/out/items/${dataId}`, { data: { n: 0 } });
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'outage', type: 'live', allowedDomains: ['shop.example.com'] });
    const query = new URLSearchParams({ apiKey: key, dataIds: ITEMS.join(',') }).toString();
    const followers = cluster.apis.map((node) => follow(`${node.url}/subscribe?${query}`));
    await eventually('both subscribers to get the snapshot', async () => (followers.every((f) => f.latest.size === ITEMS.length) ? true : undefined), 30_000);
    const active = await eventually('one active projector', async () => {
      const readings = await Promise.all(cluster.projectors.map((node) => scrapeProjector(node.url)));
      const index = readings.findIndex((r) => r?.active === true);
      return index >= 0 && readings.filter((r) => r?.active).length === 1 ? index : undefined;
    });
    const watch = watchActiveProjectors(cluster.projectors.map((node) => node.url), 200);
    const load = startWriteLoad({ adminUrl: cluster.admin.url, token: ADMIN_TOKEN, collection: 'out', dataIds: ITEMS, perSecond: 5 });
    const reads = checkFreshReads({ apiUrls: cluster.apis.map((node) => node.url), key, origin: ORIGIN, load, withinMs: 2_000 });

    await sleep(3_000);
    const killedAt = Date.now();
    await kafka!.kill();
    // The restart itself takes 8–17 s here: about 20 s down in all.
    await sleep(5_000);
    await kafka!.restart();
    const returnedAt = Date.now();
    const downMs = returnedAt - killedAt;
    await sleep(4_000);
    await load.stop();
    await sleep(2_100);
    await reads.stop();
    await watch.stop();

    // Subscribers: every item at the value of its last write, soon after the broker's return.
    const last = new Map(ITEMS.map((dataId) => [dataId, Math.max(0, ...load.writes.filter((w) => w.dataId === dataId).map((w) => w.n))]));
    await eventually('both subscribers to receive the outage changes', async () => (followers.every((f) => ITEMS.every((id) => (f.latest.get(id) ?? -1) >= last.get(id)!)) ? true : undefined), 60_000, 50);
    const caughtUpMs = Date.now() - returnedAt;
    for (const follower of followers) follower.close();

    const slowWrites = load.writes.filter((w) => w.status === null || w.status >= 300 || (w.answeredAt ?? Infinity) - w.sentAt > 3_000);
    const stale = reads.results.filter((r) => r.visibleMs.includes(null));
    const worstRead = Math.max(...reads.results.flatMap((r) => r.visibleMs.map((ms) => ms ?? Infinity)));
    const worstWrite = Math.max(...load.writes.map((w) => (w.answeredAt ?? Infinity) - w.sentAt));
    const retried = watch.samples.some((s) => s.readings[active]?.publishRetrying === true);
    console.log(
      `[broker outage] down ${downMs} ms; ${load.writes.length} writes, slowest answer ${worstWrite} ms; ${reads.results.length} writes read back on 2 nodes, slowest ${worstRead} ms, ${stale.length} stale > 2 s; subscribers current ${caughtUpMs} ms after the broker returned; publisher retried: ${retried}`,
    );
    expect(slowWrites.map((w) => ({ n: w.n, status: w.status, ms: (w.answeredAt ?? 0) - w.sentAt, error: w.error }))).toEqual([]);
    expect(stale.map((r) => ({ n: r.write.n, visibleMs: r.visibleMs }))).toEqual([]);
    expect(reads.results.length).toBe(load.writes.length);
    expect(caughtUpMs).toBeLessThanOrEqual(15_000);
    // The projector kept its lease: in every scrape the active one said 1 and the other 0.
    expect(retried).toBe(true);
    for (const sample of watch.samples) expect(sample.active).toEqual(cluster.projectors.map((_, i) => (sample.active[i] === null ? null : i === active)));
  }, 180_000);
});
