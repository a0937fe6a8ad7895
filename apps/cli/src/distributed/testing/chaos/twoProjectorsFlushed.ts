import { eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import type { DistributedCluster } from '../distributedCluster.js';
import { scrapeProjector, watchActiveProjectors } from '../projectorScrape.js';
import { differencesFromRebuild } from '../rebuildComparison.js';
import { redisFaults } from '../redisFaults.js';
import { startWriteLoad } from '../writeLoad.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey, finalReadProblems } from './finalReads.js';
import { problemsOf, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, finding 6: Redis loses its data (FLUSHALL) while two projectors run and writes flow at
// 5/s. Fencing compares holder and token, and tokens never restart below those issued: never two
// projectors reporting pubstream_projector_active 1 for more than 1 s, exactly one afterwards,
// and nothing skipped or applied out of order (the read model equals a fresh rebuild of the log).

const ITEMS = Array.from({ length: 10 }, (_, i) => `f${i}`);
const OVERLAP_AT_MOST_MS = 1_000;

const activeCount = async (cluster: DistributedCluster): Promise<number | undefined> => {
  const readings = await Promise.all(cluster.projectors.map((node) => scrapeProjector(node.url)));
  return readings.some((r) => r === null) ? undefined : readings.filter((r) => r!.active).length;
};

export const twoProjectorsFlushed: ChaosScenario = {
  name: 'redis-flushed-two-projectors',
  title: 'Redis emptied (FLUSHALL) while two projectors run under 5 writes/s: never two active for more than 1 s, exactly one afterwards, nothing skipped or out of order',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 2 }, async ({ cluster, redis, client }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'flush', name: 'Flush' });
      await eventually('exactly one active projector', async () => ((await activeCount(cluster)) === 1 ? true : undefined), 30_000, 100);
      const load = startWriteLoad({ adminUrl: cluster.admin.url, token: ADMIN_TOKEN, collection: 'flush', dataIds: ITEMS, perSecond: 5 });
      const watch = watchActiveProjectors(cluster.projectors.map((node) => node.url), 100);
      await sleep(2_000);
      const faults = await redisFaults(redis.url);
      await faults.flushAll().finally(() => faults.close());
      const flushedAt = watch.samples.at(-1)?.at ?? 0;
      await sleep(6_000);
      await load.stop();
      const oneAfter = await eventually('exactly one active projector after the flush', async () => ((await activeCount(cluster)) === 1 ? true : undefined), 10_000, 100).catch(() => false);
      await sleep(500);
      await watch.stop();

      const overlapMs = watch.longestOverlapMs();
      const afterFlush = watch.samples.filter((s) => s.at > flushedAt + 3_000 && s.active.every((a) => a !== null));
      const key = await createReaderKey(cluster);
      const differences = await differencesFromRebuild(cluster.env.EVENT_STORE_URL!, client);
      const refused = load.writes.filter((w) => w.status === null || w.status >= 300).length;
      const line = `longest overlap of two active projectors ${overlapMs} ms over ${watch.samples.length} scrapes (active per projector ${JSON.stringify(watch.activeCounts())}); ${load.writes.length} writes, ${refused} not 2xx; read model vs fresh rebuild: ${differences.length} differences`;
      const problems = problemsOf([
        overlapMs > OVERLAP_AT_MOST_MS && `two projectors active for ${overlapMs} ms`,
        !oneAfter && 'not exactly one active projector within 10 s after the flush',
        afterFlush.length === 0 && 'no scrape of both projectors 3 s after the flush',
        ...afterFlush.filter((s) => s.active.filter(Boolean).length !== 1).slice(0, 3).map((s) => `at +${s.at} ms: active ${JSON.stringify(s.active)}`),
        ...differences.slice(0, 5).map((d) => `read model differs from a rebuild: ${JSON.stringify(d)}`),
        ...(await finalReadProblems({ cluster, key, writes: load.writes })),
      ]);
      return { name: twoProjectorsFlushed.name, line, problems };
    }),
};
