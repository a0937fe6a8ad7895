import { adminCall, importItems } from './adminClient.js';
import { onDistributedService } from './onDistributedService.js';
import { measureBatch, measureGetItem } from './profileScenarios.js';
import { startProfileRun } from './profileRun.js';
import type { Profile, ScenarioContext } from './scenarioContext.js';
import { startEmbeddedService, type BenchService } from './service.js';

/** GET item (and the batch) on 10,000 items: the keyed hot path against the Koa hello-world of the same run. */
const measureHotPath = async (profile: Profile, service: BenchService, context: ScenarioContext): Promise<void> => {
  const run = await startProfileRun(profile, service, context);
  await adminCall(run.service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
  await importItems(run.service, 'bench', 0, 10_000);
  await measureGetItem(run);
  await measureBatch(run);
};

/**
 * `npm run bench -- --quick --only=hotpath` (embedded profile) and `--only=hotpath-redis` (Redis
 * read models and rate limits, Kafka change stream, on throwaway local servers): the rows of
 * docs/public-api.md, "Hot path", after the baselines, without the rest of the profile.
 */
export const runHotPath = async (context: ScenarioContext): Promise<void> => {
  if (context.only === 'hotpath') {
    console.log('\nHot path (embedded profile)');
    const service = await startEmbeddedService();
    try {
      await measureHotPath('embedded', service, context);
    } finally {
      await service.stop();
    }
    return;
  }
  await onDistributedService(context, 'Hot path (Redis + Kafka profile)', (service) => measureHotPath('redis+kafka', service, context));
};
