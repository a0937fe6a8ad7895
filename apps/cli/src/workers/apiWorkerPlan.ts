import type { Config } from '@pubstream/config';

/** How many API workers a process runs, and why fewer than API_WORKERS asked for (null: as asked). */
export interface ApiWorkerPlan {
  readonly count: number;
  /** `followLog`: each worker follows the SQLite log into its own memory stores; `shared`: workers read Redis. */
  readonly mode: 'single' | 'followLog' | 'shared';
  readonly reason: string | null;
}

const single = (reason: string | null): ApiWorkerPlan => ({ count: 1, mode: 'single', reason });

/**
 * API_WORKERS for `pubstream start` and `pubstream api` (docs/operations.md, "API workers"). A worker
 * needs a read model it can build or reach from another process: the SQLite log file (each worker
 * replays and follows it) or Redis with Kafka (every worker reads Redis and hears changes on Kafka).
 * Anything else runs the public API in one process, as API_WORKERS=1 does.
 */
export const apiWorkerPlan = (config: Config): ApiWorkerPlan => {
  if (config.apiWorkers <= 1) return single(null);
  const asked = `API_WORKERS=${config.apiWorkers} asked for`;
  if (config.redisUrl !== null) {
    if (config.kafkaBrokers === null) return single(`${asked} workers, but with REDIS_URL and no KAFKA_BROKERS the change stream is in-process: one public API process`);
    return { count: config.apiWorkers, mode: 'shared', reason: null };
  }
  if (config.eventStore.kind !== 'sqlite') return single(`${asked} workers, but workers follow a SQLite log file and EVENT_STORE_URL is EventStoreDB: one public API process`);
  if (config.eventStore.path === ':memory:') return single(`${asked} workers, but an in-memory SQLite log (sqlite::memory:) cannot be followed by other processes: one public API process`);
  return { count: config.apiWorkers, mode: 'followLog', reason: null };
};
