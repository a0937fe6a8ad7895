import type { Stores } from '../stores.js';
import { createRedisCommands, type RedisCommands } from './redisCommands.js';
import type { RedisReadModelClient } from './redisConnection.js';
import { createRedisHistory } from './redisHistory.js';
import { createRedisKeyStore } from './redisKeyStore.js';
import { redisKeys } from './redisKeys.js';
import { createRedisProjectionStore } from './redisProjectionStore.js';
import { createRedisReadModel } from './redisReadModel.js';
import { createRedisUsageStore } from './redisUsageStore.js';

export interface RedisStoresOptions {
  /** Prefix of every key; a rebuild writes a new generation under a new namespace. Default `ps`. */
  readonly namespace?: string;
  /** How long per-hour usage buckets live. Default 35 days. */
  readonly hourBucketTtlSeconds?: number;
  /** Bounds of one write call (entries, argument bytes). Defaults 100 entries, 256 KiB: a call
   * then holds Redis for a few milliseconds at most. */
  readonly writeChunk?: { readonly maxEntries?: number; readonly maxBytes?: number };
  /** Bound of every Redis command (ServiceUnavailableError past it); none by default. See RedisCommandsOptions. */
  readonly commandTimeoutMs?: number;
  /** The clock of the history's floor (RESUME_WINDOW ago). */
  readonly now?: () => Date;
}

/** The four ports of one namespace over shared commands: cheap, they hold nothing else. */
export type RedisPorts = Omit<Stores, 'ping' | 'close'>;

export const redisPortsOf = (commands: RedisCommands, options: RedisStoresOptions = {}): RedisPorts => {
  const key = redisKeys(options.namespace ?? 'ps');
  return {
    readModel: createRedisReadModel(commands, key),
    history: createRedisHistory(commands, key, options.now ?? (() => new Date())),
    keys: createRedisKeyStore(commands, key),
    usage: createRedisUsageStore(commands, key, options.hourBucketTtlSeconds),
    projections: createRedisProjectionStore(commands, key, options.writeChunk),
  };
};

/**
 * The read-side ports on Redis or Redis Cluster, under one namespace (key design in
 * docs/read-models.md). `close()` closes the client; a caller that shares its client (a rebuild
 * target beside the live generation) simply drops the object instead.
 */
export const createRedisStores = (client: RedisReadModelClient, options: RedisStoresOptions = {}): Stores => {
  const commands = createRedisCommands(client, { timeoutMs: options.commandTimeoutMs });
  return { ...redisPortsOf(commands, options), ping: commands.ping, close: commands.close };
};
