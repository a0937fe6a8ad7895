import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Config } from '@pubstream/config';
import type { Logger } from '@pubstream/observability';
import { createProgressReporter, exportEvents, rebuildReadModels, toNdjsonLine, type RebuildResult } from '@pubstream/projector';
import { createMemoryStores, type RedisReadModelClient } from '@pubstream/read-model';
import { Kafka, logLevel } from 'kafkajs';
import { openEventStore, openStores } from './adapters.js';
import { publishEventsToKafka } from './exportToKafka.js';
import { rebuildGeneration } from './generationRebuild.js';

export interface EventsExportOptions {
  readonly from?: number;
  readonly to?: number;
  readonly types?: readonly string[];
  /** A file path; stdout when absent. */
  readonly output?: string;
  /** Publish to this Kafka topic (keyed by entity) instead of writing NDJSON. */
  readonly toKafka?: string;
}

/** `pubstream events export`: the log (a range, some types) as NDJSON or into a Kafka topic. Returns the count. */
export const runEventsExport = async (config: Config, options: EventsExportOptions): Promise<number> => {
  const eventStore = openEventStore(config, () => new Date());
  let count = 0;
  try {
    const events = exportEvents({ eventStore, from: options.from, to: options.to, types: options.types });
    if (options.toKafka !== undefined) {
      if (config.kafkaBrokers === null) throw new Error('--to-kafka needs KAFKA_BROKERS');
      const producer = new Kafka({ clientId: 'pubstream-export', brokers: [...config.kafkaBrokers], logLevel: logLevel.NOTHING }).producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      try {
        return await publishEventsToKafka(producer, options.toKafka, events);
      } finally {
        await producer.disconnect();
      }
    }
    const out = options.output === undefined ? process.stdout : createWriteStream(options.output);
    for await (const event of events) {
      count++;
      if (!out.write(toNdjsonLine(event))) await once(out, 'drain');
    }
    if (out !== process.stdout) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return count;
  } finally {
    await eventStore.close();
  }
};

/**
 * `pubstream projections rebuild`: on Redis, builds a new generation beside the live one, switches
 * it live and drops the old one (generationRebuild.ts; resumes a crashed run). `--dry-run` rebuilds
 * from position 0 into a fresh in-memory model and reports the differences with the live one.
 * The embedded profile's memory read models are rebuilt at every start: nothing to switch.
 */
export const runProjectionsRebuild = async (config: Config, logger: Logger, options: { dryRun: boolean; only?: readonly string[] }): Promise<RebuildResult | null> => {
  if (!options.dryRun && config.redisUrl === null) {
    process.stderr.write('the embedded profile keeps its read models in memory and rebuilds them from the log at every start: restart it to rebuild (nothing to switch)\n');
    return null;
  }
  if (!options.dryRun) {
    if (options.only !== undefined) throw new Error('a live generation holds every projection: rebuild them all to switch (names are for --dry-run)');
    const now = () => new Date();
    const eventStore = openEventStore(config, now);
    const { stores, redis } = await openStores(config, logger, now);
    try {
      return await rebuildGeneration({
        client: redis as RedisReadModelClient,
        eventStore,
        progress: createProgressReporter(process.stderr),
        now,
        resumeWindowMs: config.resumeWindowMs,
        log: (message) => process.stderr.write(`${message}\n`),
      });
    } finally {
      await stores.close();
      await eventStore.close();
    }
  }
  if (config.redisUrl === null) throw new Error('--dry-run compares with the live read model in Redis (REDIS_URL)');
  const now = () => new Date();
  const eventStore = openEventStore(config, now);
  const { stores: live } = await openStores(config, logger, now);
  try {
    return await rebuildReadModels({ eventStore, target: createMemoryStores({ now }), live, dryRun: true, only: options.only, progress: createProgressReporter(process.stderr) });
  } finally {
    await live.close();
    await eventStore.close();
  }
};
