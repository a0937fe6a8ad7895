import os from 'node:os';
import { adminCall, importItems } from './adminClient.js';
import { startProfileRun, withKeys } from './profileRun.js';
import { bytesToMb, type ScenarioContext } from './scenarioContext.js';
import { startEmbeddedService } from './service.js';

const ITEMS = 10_000;

/**
 * `--only=workers` (issue 20, "Every core"): GET item on `pubstream start` with API_WORKERS=1 and
 * with API_WORKERS=2, one after the other in the same run, 100 connections. The load generator
 * (autocannon, one thread of this process) runs on the same cores as the service: on a 2-core
 * machine the two workers, the primary (which answers their rate-limit calls) and the generator
 * share two cores, so the ratio is a floor of what a separate client machine would see.
 */
export const measureWorkers = async (context: ScenarioContext): Promise<void> => {
  console.log(`\nAPI workers: GET item with API_WORKERS=1, then 2 (embedded profile, ${ITEMS.toLocaleString('en-US')} items, ${os.availableParallelism()} cores shared with the load generator)`);
  const rates: number[] = [];
  for (const workers of [1, 2]) {
    const service = await startEmbeddedService({ API_WORKERS: String(workers) });
    try {
      const run = await startProfileRun('embedded', service, context);
      await adminCall(service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
      await importItems(service, 'bench', 0, ITEMS);
      const scenario = `GET item, API_WORKERS=${workers} (100 conn)`;
      const result = await run.load(scenario, withKeys(run.keys, { path: '/public/data/item-0004242' }), 100);
      rates.push(result.requestsPerSecond);
      run.push({
        scenario,
        profile: 'embedded',
        unit: 'req/s',
        value: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        // The primary's RSS (with 2 workers each worker holds its own read model besides).
        peakRssMb: bytesToMb(service.api.peakRssBytes()),
        ...(workers === 2 && rates[0] ? { baseline: 'API_WORKERS=1', ratio: result.requestsPerSecond / rates[0], target: '≥ 1.6× one worker (load generator on the same cores)', met: result.requestsPerSecond / rates[0] >= 1.6 } : {}),
      });
    } finally {
      await service.stop();
    }
  }
};
