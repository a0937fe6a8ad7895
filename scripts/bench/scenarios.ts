import { measureCrossProcessFanout, measureCrossProcessLog } from './crossProcessScenario.js';
import { startBenchKafka, startBenchRedis } from './localBackends.js';
import { runHotPath } from './hotPathScenario.js';
import { runCompressionProfile, runFanoutProfile, runProfile } from './profileScenarios.js';
import { redisBenchmarkGet } from './redisBaseline.js';
import { runResumeScenario } from './resumeScenario.js';
import { onDistributedService } from './onDistributedService.js';
import { measureReplay } from './replay.js';
import type { ScenarioContext } from './scenarioContext.js';
import { startDistributedService, startEmbeddedService } from './service.js';
import { runStreamScenarios } from './streamScenarios.js';
import { measureWorkers } from './workersScenario.js';

/** Runs `measure` against a fresh embedded service, stopped afterwards whatever happens. */
const onEmbedded = async (title: string, measure: (service: Awaited<ReturnType<typeof startEmbeddedService>>) => Promise<void>): Promise<void> => {
  console.log(`\n${title}`);
  const service = await startEmbeddedService();
  try {
    await measure(service);
  } finally {
    await service.stop();
  }
};

export const runScenarios = async (context: ScenarioContext): Promise<void> => {
  const { only } = context;
  if (only === 'crossprocess') return runCrossProcess(context);
  if (only === 'hotpath' || only === 'hotpath-redis') return runHotPath(context);
  if (only === 'fanout' || only === 'fanout-embedded') await onEmbedded('Fanout, embedded profile', (service) => runFanoutProfile('embedded', service, context));
  if (only === 'fanout' || only === 'fanout-distributed') return runDistributedFanout(context);
  if (!only || only === 'workers') await measureWorkers(context);
  if (!only || only === 'streams') await runStreamScenarios(context);
  if (only === 'compression') await onEmbedded('Compression (embedded profile, 2,000 items)', (service) => runCompressionProfile('embedded', service, context));
  if (!only) await measureCrossProcessLog(context);
  if (!only || only === 'resume') await runResumeScenario(context);
  if (!only || only === 'embedded') await onEmbedded('Embedded profile (SQLite log, memory read models, one process)', (service) => runProfile('embedded', service, context));
  if (!only || only === 'redis' || only === 'replay') {
    const redis = startBenchRedis();
    if (!redis) {
      context.notes.push('Redis profile skipped: no redis-server could be started.');
      return;
    }
    try {
      const port = Number(new URL(redis.url).port);
      const store = redisBenchmarkGet(port, context.quick ? 200_000 : 1_000_000);
      context.rows.push({ scenario: 'redis-benchmark GET (50 conn)', profile: 'baseline', unit: 'ops/s', value: store.opsPerSecond, p50Ms: store.p50Ms, p99Ms: store.p99Ms });
      console.log(`  redis-benchmark GET: ${Math.round(store.opsPerSecond)} ops/s`);
      await measureReplay(redis.url, context);
      if (only !== 'replay') {
        const kafka = startBenchKafka();
        if (!kafka) context.notes.push('Redis + Kafka profile skipped: no Kafka broker could be started.');
        else {
          console.log('\nDistributed profile (Redis read models and rate limits, Kafka change stream; API, projector and admin processes)');
          try {
            const service = await startDistributedService(redis.url, kafka.url);
            try {
              await runProfile('redis+kafka', service, context);
            } finally {
              await service.stop();
            }
            if (!only) await measureCrossProcessFanout(redis.url, kafka.url, context);
          } catch (error) {
            context.notes.push(`Redis + Kafka profile failed: ${(error as Error).message.split('\n')[0]}`);
            console.log(`  Redis + Kafka profile failed: ${(error as Error).message}`);
          } finally {
            kafka.stop();
          }
        }
      }
    } finally {
      redis.stop();
    }
  }
};

/** `--only=crossprocess`: the SQLite log followed from another process, then the distributed profile end to end. */
const runCrossProcess = async (context: ScenarioContext): Promise<void> => {
  await measureCrossProcessLog(context);
  const redis = startBenchRedis();
  const kafka = redis ? startBenchKafka() : null;
  try {
    if (redis && kafka) await measureCrossProcessFanout(redis.url, kafka.url, context);
    else context.notes.push('cross-process fanout skipped: no Redis or Kafka could be started.');
  } finally {
    kafka?.stop();
    redis?.stop();
  }
};

/** `--only=fanout` (after the embedded profile) or `--only=fanout-distributed`: the fanout through Redis + Kafka. */
const runDistributedFanout = (context: ScenarioContext): Promise<void> =>
  onDistributedService(context, 'Fanout, distributed profile (Redis + Kafka)', (service) => runFanoutProfile('redis+kafka', service, context));
