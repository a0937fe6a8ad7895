import { createHash } from 'node:crypto';
import type { RedisClientType, RedisClusterType } from 'redis';
import type { RedisReadModelClient } from '@pubstream/read-model';

/** A Lua script and its SHA-1, for EVALSHA. */
export interface LuaScript {
  readonly text: string;
  readonly sha: string;
}

export const luaScript = (text: string): LuaScript => ({ text, sha: createHash('sha1').update(text).digest('hex') });

/** Sends one command to the node that holds `key` (a single Redis or a cluster). */
export const redisSender = (client: RedisReadModelClient): ((key: string, args: string[]) => Promise<unknown>) => {
  const cluster = 'masters' in client ? (client as RedisClusterType) : null;
  return (key, args) => (cluster ? cluster.sendCommand(key, false, args) : (client as RedisClientType).sendCommand(args));
};

/**
 * EVALSHA on the node that holds `key`; EVAL once when that node does not have the script (its
 * cache is empty after a restart, a flush or a failover).
 */
export const scriptRunner = (client: RedisReadModelClient) => {
  const send = redisSender(client);
  return async (script: LuaScript, key: string, args: string[]): Promise<unknown> => {
    try {
      return await send(key, ['EVALSHA', script.sha, '1', key, ...args]);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return send(key, ['EVAL', script.text, '1', key, ...args]);
    }
  };
};
