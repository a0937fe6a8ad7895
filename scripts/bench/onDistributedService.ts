import { startBenchKafka, startBenchRedis } from './localBackends.js';
import type { ScenarioContext } from './scenarioContext.js';
import { startDistributedService, type BenchService } from './service.js';

/**
 * Runs `measure` against the distributed profile on a throwaway Redis and Kafka, everything stopped
 * afterwards whatever happens; without them, one note says what was skipped.
 */
export const onDistributedService = async (
  context: ScenarioContext,
  what: string,
  measure: (service: BenchService) => Promise<void>,
): Promise<void> => {
  const redis = startBenchRedis();
  const kafka = redis ? startBenchKafka() : null;
  try {
    if (!redis || !kafka) {
      context.notes.push(`${what} skipped: no local redis-server or Kafka broker.`);
      return;
    }
    console.log(`\n${what}`);
    const service = await startDistributedService(redis.url, kafka.url);
    try {
      await measure(service);
    } finally {
      await service.stop();
    }
  } finally {
    kafka?.stop();
    redis?.stop();
  }
};
