import { hostname } from 'node:os';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createMemoryStreamSlots, createRedisRateLimiter, createRedisStreamSlots, type RateLimiter, type StreamSlots } from '@pubstream/access';
import { createInProcessChangeStream, createKafkaChangeStream, type ChangeStream } from '@pubstream/change-stream';
import type { Config } from '@pubstream/config';
import { createEsdbEventStore, createSqliteEventStore, openSqliteDatabase, type EventStore } from '@pubstream/event-store';
import type { Logger } from '@pubstream/observability';
import { connectRedis, createGenerationalRedisStores, createMemoryStores, type RedisReadModelClient, type Stores } from '@pubstream/read-model';
import { Kafka, logLevel } from 'kafkajs';

/** How long the admin (and the all-in-one) waits for the SQLite log's write lock (docs/operations.md). */
export const SERVING_SQLITE_BUSY_TIMEOUT_MS = 2_000;

/**
 * Builds the clients the configuration names and hands them to the libs' adapters
 * (docs/architecture.md, Profiles): SQLite or EventStoreDB, memory or Redis, in-process or Kafka.
 * Only apps build clients; the adapters never read configuration.
 */
export const openEventStore = (config: Config, now: () => Date, options: { readonly servesRequests?: boolean } = {}): EventStore => {
  // better-sqlite3 waits for another process's lock synchronously: a process that answers requests
  // waits at most 2 s (then 503, nothing written), not SQLite's 5 s default of this adapter.
  const busyTimeoutMs = options.servesRequests ? SERVING_SQLITE_BUSY_TIMEOUT_MS : undefined;
  if (config.eventStore.kind === 'sqlite') return createSqliteEventStore(openSqliteDatabase(config.eventStore.path, { busyTimeoutMs }), { now });
  return createEsdbEventStore(EventStoreDBClient.connectionString`${config.eventStore.connectionString}`);
};

export interface OpenedStores {
  /** The four read-side ports; each app is handed the ones it uses (docs/architecture.md). */
  readonly stores: Stores;
  /** The Redis client when the stores are on Redis (shared by the rate limiter and stream slots). */
  readonly redis: RedisReadModelClient | null;
}

/**
 * The read-side stores. `servesRequests`: a process that answers requests (API, admin, all-in-one)
 * bounds every Redis command by REDIS_COMMAND_TIMEOUT_MS, so a frozen Redis gives 503 in time
 * instead of a hang; the projector and the CLI tools wait (their writes may take long under load).
 */
export const openStores = async (config: Config, logger: Logger, now: () => Date, options: { readonly servesRequests?: boolean } = {}): Promise<OpenedStores> => {
  if (config.redisUrl === null) return { stores: createMemoryStores({ now }), redis: null };
  // Errors are logged, not thrown: node-redis reconnects by itself and reads answer 503 meanwhile.
  const redis = await connectRedis(config.redisUrl, (error) => logger.warn({ err: error }, 'redis connection error'));
  const commandTimeoutMs = options.servesRequests ? config.redisCommandTimeoutMs : undefined;
  // The active generation behind the `ps` pointer, so `projections rebuild` can switch it live.
  return { stores: await createGenerationalRedisStores(redis, { root: 'ps', commandTimeoutMs, now }), redis };
};

export const openChangeStream = (config: Config, logger: Logger, clientId: string): ChangeStream => {
  if (config.kafkaBrokers === null) return createInProcessChangeStream({ logger });
  // Reconnects and retries back off with jitter up to 2 s at most (docs/distributed.md), not kafkajs'
  // 30 s: a broker that returns is used again within about 2 s by producers and consumers alike.
  const retry = { initialRetryTime: 100, maxRetryTime: 2_000, retries: 8 };
  const kafka = new Kafka({ clientId, brokers: [...config.kafkaBrokers], logLevel: logLevel.NOTHING, retry });
  return createKafkaChangeStream(kafka, { topic: config.kafkaTopic, logger });
};

/**
 * Rate limits shared by every API node through Redis, on the Redis server's clock; undefined means
 * the API's in-memory default. `now` is the clock of the in-memory insurance limiter, used while
 * Redis is unreachable or frozen (one warning per outage).
 */
export const openRateLimiter = (config: Config, redis: RedisReadModelClient | null, now: () => Date, logger: Logger): RateLimiter | undefined =>
  redis === null
    ? undefined
    : createRedisRateLimiter({
        client: redis,
        window: config.rateLimitWindow,
        now,
        onFallback: (error) => logger.warn({ err: error }, 'rate limits: Redis failed or did not answer in time; this node limits in memory until it answers again'),
      });

/** The per-key cap on concurrent streams: shared by every API node through Redis, else this process's. */
export const openStreamSlots = (redis: RedisReadModelClient | null): StreamSlots =>
  redis === null ? createMemoryStreamSlots() : createRedisStreamSlots({ client: redis });

/** Who this process is, for the projector lease (shown to operators, never trusted for fencing). */
export const processIdentity = (role: string): string => `${hostname()}:${process.pid}:${role}`;
