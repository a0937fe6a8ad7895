import { createRedisStores, type RedisReadModelClient } from '@pubstream/read-model';
import { eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import type { DistributedCluster } from '../distributedCluster.js';
import type { NodeProcess } from '../nodeProcess.js';
import { scrapeProjector, watchActiveProjectors } from '../projectorScrape.js';
import { differencesFromRebuild } from '../rebuildComparison.js';
import { startWriteLoad, type WriteLoad } from '../writeLoad.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey, finalReadProblems } from './finalReads.js';
import { problemsOf, type ChaosScenario } from './scenarioOutcome.js';

// The active projector frozen (SIGSTOP, a stalled VM or a long GC) for 6 s under 5 writes/s, then
// resumed. Not a bound of issue 23 by name, but its fencing promise: the standby applies new
// writes within 3 s (as after kill -9), the resumed one is fenced off and stands by (never two
// active for more than 1 s), and nothing is skipped or applied out of order.

const ITEMS = Array.from({ length: 10 }, (_, i) => `z${i}`);
const FREEZE_MS = 6_000;
const APPLIED_WITHIN_MS = 3_000;
const OVERLAP_AT_MOST_MS = 1_000;

const activeIndex = async (cluster: DistributedCluster): Promise<number | undefined> => {
  const readings = await Promise.all(cluster.projectors.map((node) => scrapeProjector(node.url)));
  return readings.filter((r) => r?.active).length === 1 && readings.every((r) => r !== null) ? readings.findIndex((r) => r?.active) : undefined;
};

/** ms from `since` until the first write sent after it is in the read model (Infinity: not within 20 s). */
const appliedAfter = async (client: RedisReadModelClient, load: WriteLoad, since: number): Promise<number> => {
  const live = createRedisStores(client);
  const write = await eventually('a write after the freeze', async () => load.writes.find((w) => w.sentAt > since), 5_000, 5);
  return eventually('it to be applied', async () => {
    const item = await live.readModel.getItem(write.dataId);
    return typeof item?.data.n === 'number' && item.data.n >= write.n ? Date.now() - since : undefined;
  }, 20_000, 20).catch(() => Infinity);
};

/** SIGSTOP for FREEZE_MS, SIGCONT whatever happens. */
const frozenFor = async <T>(node: NodeProcess, during: () => Promise<T>): Promise<T> => {
  process.kill(node.pid, 'SIGSTOP');
  const frozenAt = Date.now();
  try {
    const result = await during();
    await sleep(Math.max(0, frozenAt + FREEZE_MS - Date.now()));
    return result;
  } finally {
    process.kill(node.pid, 'SIGCONT');
  }
};

export const projectorFrozen: ChaosScenario = {
  name: 'projector-frozen',
  title: 'the active projector frozen 6 s (SIGSTOP) under 5 writes/s: the standby applies within 3 s, the resumed one stands by (never two active > 1 s), nothing skipped',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 2, env: { PROJECTOR_LEASE_TTL_MS: '' } }, async ({ cluster, client }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'frozen', name: 'Frozen' });
      const key = await createReaderKey(cluster);
      const active = await eventually('one active projector', () => activeIndex(cluster), 30_000, 100);
      const load = startWriteLoad({ adminUrl: cluster.admin.url, token: ADMIN_TOKEN, collection: 'frozen', dataIds: ITEMS, perSecond: 5 });
      const watch = watchActiveProjectors(cluster.projectors.map((node) => node.url), 100);
      await sleep(1_000);
      const frozenAt = Date.now();
      const appliedMs = await frozenFor(cluster.projectors[active]!, () => appliedAfter(client, load, frozenAt));
      await sleep(3_000);
      await load.stop();
      await watch.stop();
      const standsBy = (await activeIndex(cluster)) === 1 - active;
      const overlapMs = watch.longestOverlapMs();
      const differences = await differencesFromRebuild(cluster.env.EVENT_STORE_URL!, client);
      const refused = load.writes.filter((w) => w.status === null || w.status >= 300);
      const line = `standby applied ${appliedMs} ms after the freeze; after SIGCONT the frozen one ${standsBy ? 'stood by' : 'did NOT stand by'}, longest overlap of two active ${overlapMs} ms; ${load.writes.length} writes, ${refused.length} not 2xx; ${differences.length} differences from a rebuild`;
      const problems = problemsOf([
        appliedMs > APPLIED_WITHIN_MS && `the standby applied ${appliedMs} ms after the freeze`,
        !standsBy && 'the resumed projector did not stand by (or the standby did not stay active)',
        overlapMs > OVERLAP_AT_MOST_MS && `two projectors active for ${overlapMs} ms`,
        ...refused.slice(0, 3).map((w) => `write n=${w.n}: ${w.status ?? w.error}`),
        ...differences.slice(0, 5).map((d) => `read model differs from a rebuild: ${JSON.stringify(d)}`),
        ...(await finalReadProblems({ cluster, key, writes: load.writes })),
      ]);
      return { name: projectorFrozen.name, line, problems };
    }),
};
