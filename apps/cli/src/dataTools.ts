import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Config } from '@pubstream/config';
import type { Logger } from '@pubstream/observability';
import { createProgressReporter, entityKeyOf, exportEvents, rebuildReadModels, toNdjsonLine } from '@pubstream/projector';
import { createMemoryReadModel } from '@pubstream/read-model';
import { Kafka, logLevel } from 'kafkajs';
import { openEventStore, openReadModel } from './adapters.js';

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
        let batch: { key: string; value: string }[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          await producer.send({ topic: options.toKafka as string, acks: -1, messages: batch });
          batch = [];
        };
        for await (const event of events) {
          batch.push({ key: entityKeyOf(event), value: JSON.stringify(event) });
          count++;
          if (batch.length >= 500) await flush();
        }
        await flush();
      } finally {
        await producer.disconnect();
      }
      return count;
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
 * `pubstream projections rebuild --dry-run`: rebuilds the read models from position 0 into a fresh
 * in-memory generation beside the live one and reports the differences. Switching the live
 * generation needs a generation pointer in the read-model adapter, which is not there yet.
 */
export const runProjectionsRebuild = async (config: Config, logger: Logger, options: { dryRun: boolean; only?: readonly string[] }) => {
  if (!options.dryRun) {
    throw new Error(
      config.redisUrl === null
        ? 'the embedded profile rebuilds its in-memory read models from the log at every start; use --dry-run to check them'
        : 'switching the live Redis generation is not yet available in this build; use --dry-run to compare a rebuilt generation with the live one',
    );
  }
  if (config.redisUrl === null) throw new Error('--dry-run compares with the live read model in Redis (REDIS_URL)');
  const now = () => new Date();
  const eventStore = openEventStore(config, now);
  const { readModel: live } = await openReadModel(config, logger, now);
  try {
    return await rebuildReadModels({ eventStore, target: createMemoryReadModel({ now }), live, dryRun: true, only: options.only, progress: createProgressReporter(process.stderr) });
  } finally {
    await live.close();
    await eventStore.close();
  }
};
