import { adminCall, importItems } from './adminClient.js';
import { startBenchKafka, startBenchRedis } from './localBackends.js';
import { measureBatch, measureGetItem } from './profileScenarios.js';
import { startProfileRun } from './profileRun.js';
import type { Profile, ScenarioContext } from './scenarioContext.js';
import { startDistributedService, startEmbeddedService, type BenchService } from './service.js';

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
  const redis = startBenchRedis();
  const kafka = redis ? startBenchKafka() : null;
  try {
    if (!redis || !kafka) {
      context.notes.push('Hot path on Redis + Kafka skipped: no local redis-server or Kafka broker.');
      return;
    }
    console.log('\nHot path (Redis + Kafka profile)');
    const service = await startDistributedService(redis.url, kafka.url);
    try {
      await measureHotPath('redis+kafka', service, context);
    } finally {
      await service.stop();
    }
  } finally {
    kafka?.stop();
    redis?.stop();
  }
};
