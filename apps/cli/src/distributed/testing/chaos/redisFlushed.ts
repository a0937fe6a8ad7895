import { eventually, sleep } from '@pubstream/testing';
import { seedFaultScenario } from '../faultSeed.js';
import { isHonest503, probe } from '../httpProbe.js';
import { redisFaults } from '../redisFaults.js';
import { startSteadyReaders, statusCounts, type ReadTarget, type SteadyReaders } from '../steadyReaders.js';
import { withChaosCluster } from './chaosCluster.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, "Redis emptied under load": FLUSHALL while steady readers use a valid key on an
// existing item and page on both API nodes, and the projector rebuilds the read model by itself
// (3,000 items, the probed ones last): only 200 or 503 (zero 401, zero 404), 200 again within 30 s.

const RECOVER_WITHIN_MS = 30_000;

/** Flushes under the readers; resolves once every target's last 20 answers are 200 (or with null after the bound). */
const flushAndWait = async (readers: SteadyReaders, targets: readonly ReadTarget[], redisUrl: string): Promise<{ flushedAt: number; recoveredAt: number | null }> => {
  const faults = await redisFaults(redisUrl);
  await sleep(1_000);
  const flushedAt = performance.now();
  try {
    await faults.flushAll();
  } finally {
    await faults.close();
  }
  const recoveredAt = await eventually(
    'every target answering 200 again',
    async () => {
      const lastTwenty = targets.map((target) => readers.since(flushedAt, target.name).slice(-20));
      return lastTwenty.every((records) => records.length === 20 && records.every((record) => record.status === 200)) ? performance.now() : undefined;
    },
    RECOVER_WITHIN_MS + 5_000,
    50,
  ).catch(() => null);
  return { flushedAt, recoveredAt };
};

export const redisFlushed: ChaosScenario = {
  name: 'redis-flushed-under-load',
  title: 'Redis emptied (FLUSHALL) under steady reads: a valid key and an existing item get only 200 or 503 (zero 401, zero 404), and 200 again within 30 s',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 1 }, async ({ cluster, redis }) => {
      const seed = await seedFaultScenario(cluster, 3_000);
      const headers = { 'X-API-Key': seed.key };
      const targets = cluster.apis.flatMap((node, index) => [
        { name: `api${index} item`, url: `${node.url}/public/data/${seed.dataId}`, headers },
        { name: `api${index} page`, url: `${node.url}/public/collections/${seed.slug}/data?limit=5`, headers },
      ]);
      await eventually('200 on every target', async () => ((await Promise.all(targets.map((t) => probe(t.url, { timeoutMs: 2_000, headers })))).every((r) => r.status === 200) ? true : undefined), 20_000, 100);
      const readers = startSteadyReaders(targets, { concurrency: 3, pauseMs: 5, timeoutMs: 5_000 });
      let flushed: { flushedAt: number; recoveredAt: number | null };
      try {
        flushed = await flushAndWait(readers, targets, redis.url);
      } finally {
        await readers.stop();
      }
      const during = readers.since(flushed.flushedAt);
      const unavailable = during.filter((record) => record.status === 503);
      const lastUnavailableMs = unavailable.length === 0 ? 0 : (unavailable.at(-1)!.sentAt + unavailable.at(-1)!.ms) - flushed.flushedAt;
      const recoveredMs = flushed.recoveredAt === null ? null : flushed.recoveredAt - flushed.flushedAt;
      const counts = statusCounts(during);
      const line = `${during.length} answers after the flush ${JSON.stringify(counts)}: ${counts['401'] ?? 0} × 401, ${counts['404'] ?? 0} × 404; last 503 ${seconds(lastUnavailableMs)} after the flush; every target 200 again (20 in a row) ${recoveredMs === null ? 'never' : seconds(recoveredMs)} after it`;
      const wrongBody = during.filter((r) => r.target.endsWith('item') && r.status === 200 && (JSON.parse(r.body) as { data?: { n?: unknown } }).data?.n !== seed.data.n);
      const problems = problemsOf([
        ...during.filter((r) => r.status !== 200 && !isHonest503(r)).slice(0, 5).map((r) => `${r.target}: ${r.status ?? r.error} ${r.body.slice(0, 120)}`),
        wrongBody.length > 0 && `${wrongBody.length} item reads answered 200 with a wrong body, e.g. ${wrongBody[0]!.body.slice(0, 120)}`,
        (recoveredMs === null || lastUnavailableMs > RECOVER_WITHIN_MS) && `not 200 again within ${RECOVER_WITHIN_MS} ms of the flush`,
      ]);
      return { name: redisFlushed.name, line, problems };
    }),
};
