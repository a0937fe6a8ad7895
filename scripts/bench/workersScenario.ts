import os from 'node:os';
import { adminCall, importItems } from './adminClient.js';
import type { LoadResult } from './httpLoad.js';
import { startProfileRun, withKeys, type ProfileRun } from './profileRun.js';
import { bytesToMb, type ScenarioContext } from './scenarioContext.js';
import { startEmbeddedService, type BenchService } from './service.js';

const ITEMS = 10_000;
const WORKERS = [1, 2] as const;

/** A service with `workers` API workers, its data loaded. */
const prepared = async (workers: number, context: ScenarioContext): Promise<ProfileRun> => {
  const service = await startEmbeddedService({ API_WORKERS: String(workers) });
  try {
    const run = await startProfileRun('embedded', service, context);
    await adminCall(service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
    await importItems(service, 'bench', 0, ITEMS);
    return run;
  } catch (error) {
    await service.stop();
    throw error;
  }
};

/**
 * `--only=workers` (issue 20, "Every core"): GET item on `pubstream start` with API_WORKERS=1 and
 * with API_WORKERS=2, both running, loaded in turn (1, 2, 1, 2, …: a change in the machine's load
 * hits both alike), 100 connections; the best round of each counts. The load generator (autocannon,
 * one thread of this process) runs on the same cores as the service: on a 2-core machine the two
 * workers, the primary (which answers their rate-limit calls) and the generator share two cores.
 */
export const measureWorkers = async (context: ScenarioContext): Promise<void> => {
  console.log(`\nAPI workers: GET item with API_WORKERS=1 and 2, alternated (embedded profile, ${ITEMS.toLocaleString('en-US')} items, ${os.availableParallelism()} cores shared with the load generator)`);
  const runs: ProfileRun[] = [];
  try {
    for (const workers of WORKERS) runs.push(await prepared(workers, context));
    const best: (LoadResult | undefined)[] = WORKERS.map(() => undefined);
    for (let round = 0; round < (context.quick ? 2 : 3); round++) {
      for (const [i, run] of runs.entries()) {
        const result = await run.load(`GET item, API_WORKERS=${WORKERS[i]}`, withKeys(run.keys, { path: '/public/data/item-0004242' }), 100);
        console.log(`  round ${round + 1}, API_WORKERS=${WORKERS[i]}: ${Math.round(result.requestsPerSecond)} req/s`);
        if (result.requestsPerSecond > (best[i]?.requestsPerSecond ?? 0)) best[i] = result;
      }
    }
    const [one, two] = best;
    for (const [i, result] of best.entries()) {
      if (!result) continue;
      const ratio = i === 1 && one ? result.requestsPerSecond / one.requestsPerSecond : undefined;
      context.rows.push({
        scenario: `GET item, API_WORKERS=${WORKERS[i]} (100 conn, best of alternated rounds)`,
        profile: 'embedded',
        unit: 'req/s',
        value: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        // The primary's RSS (with workers each one holds its own read model besides).
        peakRssMb: bytesToMb((runs[i] as ProfileRun).service.api.peakRssBytes()),
        ...(ratio === undefined ? {} : { baseline: 'API_WORKERS=1', ratio, target: '≥ 1.6× one worker (load generator on the same cores)', met: ratio >= 1.6 }),
      });
    }
    if (one && two) console.log(`  2 workers / 1 worker: ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}×`);
  } finally {
    await Promise.all(runs.map((run) => stopService(run.service)));
  }
};

const stopService = (service: BenchService): Promise<void> => service.stop();
