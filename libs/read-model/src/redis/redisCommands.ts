import { createHash } from 'node:crypto';
import type { RedisClientType, RedisClusterType } from 'redis';
import { boundedRedisCall } from './boundedRedisCall.js';
import type { RedisReadModelClient } from './redisConnection.js';
import * as scripts from './redisScripts.js';

export type Reply = unknown;
export type ScriptName = keyof typeof scripts;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const SHAS = Object.fromEntries(Object.entries(scripts).map(([name, text]) => [name, sha1(text)])) as Record<ScriptName, string>;

/** Redis lost its scripts (restart, flush, failover): load them and call again. */
export const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT');

export interface RedisCommandsOptions {
  /**
   * Bound of every command (script loads and pings included): past it the call rejects with
   * ServiceUnavailableError. Undefined: no bound (a projector's writes may take long under load;
   * its lease bounds it). Processes that answer requests set it (REDIS_COMMAND_TIMEOUT_MS).
   */
  readonly timeoutMs?: number;
}

/**
 * One client's commands, shared by the per-port modules of every namespace on it (the ports of
 * a generation hold nothing else). Works the same on one Redis and on a Redis Cluster, where a
 * command is routed by its first key.
 */
export interface RedisCommands {
  /** On a cluster one call may only touch keys of one slot. */
  readonly cluster: boolean;
  send(routeKey: string, args: string[], readonly?: boolean): Promise<Reply>;
  /** One EVALSHA; NOSCRIPT is the caller's (batched writes and counts reload once for many calls). */
  evalsha(name: ScriptName, keys: string[], args: string[], readonly?: boolean): Promise<Reply>;
  /** One EVALSHA that loads the scripts and tries again when Redis lost them. */
  run(name: ScriptName, keys: string[], args: string[], readonly?: boolean): Promise<Reply>;
  /** Loads every script on every master. */
  loadScripts(): Promise<void>;
  /** The one Redis, or every master of a cluster (for SCAN, script loads and pings). */
  nodes(): Promise<RedisClientType[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * The same client's commands without the timeout, for writes that must not be repeated: a
   * command that timed out may still run once Redis answers, so a caller that retries it (usage
   * counts) would count twice.
   */
  readonly unbounded: RedisCommands;
}

/**
 * Every command goes through `send`, `nodes`, `loadScripts` or `ping`, each bounded by
 * `options.timeoutMs` and with Redis' "cannot answer now" failures as ServiceUnavailableError
 * (boundedRedisCall.ts).
 */
export const createRedisCommands = (client: RedisReadModelClient, options: RedisCommandsOptions = {}): RedisCommands => {
  const cluster = 'masters' in client ? (client as RedisClusterType) : null;
  const single = cluster ? null : (client as RedisClientType);
  const bounded = <T>(call: Promise<T>): Promise<T> => boundedRedisCall(call, options.timeoutMs);

  const send = (routeKey: string, args: string[], readonly = false): Promise<Reply> =>
    bounded(cluster ? cluster.sendCommand(routeKey, readonly, args) : (single as RedisClientType).sendCommand(args));
  const nodes = async (): Promise<RedisClientType[]> =>
    cluster ? ((await bounded(Promise.all(cluster.masters.map((master) => cluster.nodeClient(master))))) as unknown as RedisClientType[]) : [single as RedisClientType];
  const loadScripts = async (): Promise<void> => {
    const all = await nodes();
    await Promise.all(all.flatMap((node) => Object.values(scripts).map((text) => bounded(node.scriptLoad(text)))));
  };
  // concat, not spread: a write call carries thousands of arguments.
  const evalsha = (name: ScriptName, keys: string[], args: string[], readonly = false): Promise<Reply> =>
    send(keys[0] as string, ['EVALSHA', SHAS[name], String(keys.length)].concat(keys, args), readonly);

  const unbounded = (): RedisCommands => (options.timeoutMs === undefined ? commands : createRedisCommands(client));
  let unboundedCommands: RedisCommands | undefined;
  const commands: RedisCommands = {
    get unbounded() {
      return (unboundedCommands ??= unbounded());
    },
    cluster: cluster !== null,
    send,
    evalsha,
    async run(name, keys, args, readonly = false) {
      try {
        return await evalsha(name, keys, args, readonly);
      } catch (error) {
        if (!isNoScript(error)) throw error;
        await loadScripts();
        return evalsha(name, keys, args, readonly);
      }
    },
    loadScripts,
    nodes,
    async ping() {
      await Promise.all((await nodes()).map((node) => bounded(node.ping())));
    },
    async close() {
      await client.close();
    },
  };
  return commands;
};
