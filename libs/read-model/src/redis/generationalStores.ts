import type { Stores } from '../stores.js';
import { followHistory, followKeyStore, followProjectionStore, followReadModel } from './followGeneration.js';
import { readActiveGeneration } from './generations.js';
import { createRedisCommands } from './redisCommands.js';
import type { RedisReadModelClient } from './redisConnection.js';
import { redisPortsOf, type RedisPorts, type RedisStoresOptions } from './redisStores.js';

/**
 * Redis stores whose records live under the *active generation*: a namespace named by one pointer
 * key (`generationPointerKey(root)`; absent = `root`, so data written before generations existed
 * keeps serving). A rebuild writes a new namespace beside the live one and then switches the
 * pointer with one SET: every reader sees either the old or the new generation, never a half-built
 * one. Usage counts are not projected from events, so they stay under `root` across generations;
 * leases and checkpoints belong to the generation (a projector whose lease is in the old generation
 * is fenced off after a switch and takes the lease again in the new one).
 */
export interface GenerationalStores extends Stores {
  /** The namespace reads and writes go to now (as last read from the pointer). */
  activeGeneration(): string;
  /** Reads the pointer now (instead of waiting for the next periodic refresh); returns it. */
  refresh(): Promise<string>;
}

export interface GenerationalStoresOptions extends Omit<RedisStoresOptions, 'namespace'> {
  /** The root namespace: the pointer, usage counts and the default generation. Default `ps`. */
  readonly root?: string;
  /** How often the pointer is read again. Default 1000 ms. */
  readonly refreshMs?: number;
}

/**
 * The stores of the active generation (see GenerationalStores). The pointer is read once here,
 * then every `refreshMs` and on `refresh()`; a failed refresh keeps the last known one.
 */
export const createGenerationalRedisStores = async (client: RedisReadModelClient, options: GenerationalStoresOptions = {}): Promise<GenerationalStores> => {
  const { root = 'ps', refreshMs = 1000, ...adapterOptions } = options;
  const commands = createRedisCommands(client, { timeoutMs: adapterOptions.commandTimeoutMs });
  const open = (namespace: string): RedisPorts => redisPortsOf(commands, { ...adapterOptions, namespace });
  let active = await readActiveGeneration(client, root);
  let current = open(active);

  const refresh = async (): Promise<string> => {
    const next = await readActiveGeneration(client, root);
    if (next !== active) {
      // The ports share the client and hold no other state: the old ones are simply dropped.
      current = open(next);
      active = next;
    }
    return active;
  };
  const timer = setInterval(() => {
    refresh().catch(() => {
      // Redis unreachable: keep serving the last known generation; node-redis reconnects.
    });
  }, refreshMs);
  timer.unref();

  return {
    activeGeneration: () => active,
    refresh,
    readModel: followReadModel(() => current.readModel),
    history: followHistory(() => current.history),
    keys: followKeyStore(() => current.keys),
    projections: followProjectionStore(() => current.projections),
    usage: open(root).usage,
    ping: commands.ping,
    async close() {
      clearInterval(timer);
      await commands.close();
    },
  };
};
