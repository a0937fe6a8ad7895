import { createHash, randomUUID } from 'node:crypto';
import type { RedisClientType, RedisClusterType } from 'redis';
import { ServiceUnavailableError } from '@pubstream/domain';
import type { RedisReadModelClient } from '@pubstream/read-model';
import { DEFAULT_STREAM_SLOT_TTL_MS, type StreamSlots } from './streamSlots.js';

// One sorted set per API key: member = node id + stream id, score = expiry in ms on the Redis
// server's clock (TIME inside the script: the nodes' clocks never matter). Each call touches one
// key, so it works on Redis Cluster; the key itself expires once no node refreshes it.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now))
`;
const SCRIPTS = {
  // ARGV: member, limit, ttl ms → 1 taken, 0 at the cap
  acquire: `${NOW}local ttl = tonumber(ARGV[3])
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], string.format('%.0f', now + ttl), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`,
  // ARGV: ttl ms, members of this node. A member that expired meanwhile (the node lost Redis for
  // longer than the TTL) is added back: its stream is still open.
  refresh: `${NOW}local ttl = tonumber(ARGV[1])
local expires = string.format('%.0f', now + ttl)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expires, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`,
  count: `${NOW}return redis.call('ZCARD', KEYS[1])`,
} as const;
type ScriptName = keyof typeof SCRIPTS;
const SHAS = Object.fromEntries(Object.entries(SCRIPTS).map(([name, text]) => [name, createHash('sha1').update(text).digest('hex')])) as Record<ScriptName, string>;

/** Members per refresh call, so that one call holds Redis for a moment only. */
const REFRESH_CHUNK = 500;

export interface RedisStreamSlotsOptions {
  readonly client: RedisReadModelClient;
  readonly ttlMs?: number;
  /** Every call fails (503) after this long instead of hanging on a frozen Redis. Default 1000 ms. */
  readonly timeoutMs?: number;
  /** Default `ps:streams:`. */
  readonly keyPrefix?: string;
  /** This node's name in the slots; a random id by default. */
  readonly nodeId?: string;
}

/** Stream slots shared by every API node through Redis (docs/subscriptions.md, "Caps"). */
export const createRedisStreamSlots = (options: RedisStreamSlotsOptions): StreamSlots => {
  const ttlMs = options.ttlMs ?? DEFAULT_STREAM_SLOT_TTL_MS;
  const timeoutMs = options.timeoutMs ?? 1_000;
  const prefix = options.keyPrefix ?? 'ps:streams:';
  const nodeId = options.nodeId ?? randomUUID();
  const cluster = 'masters' in options.client ? (options.client as RedisClusterType) : null;
  const single = cluster ? null : (options.client as RedisClientType);
  const held = new Map<string, Set<string>>();
  const member = (streamId: string): string => `${nodeId}:${streamId}`;

  const send = (key: string, args: string[]): Promise<unknown> =>
    cluster ? cluster.sendCommand(key, false, args) : (single as RedisClientType).sendCommand(args);

  /** Bounded in time: a frozen or unreachable Redis gives 503, never a hang. */
  const bounded = <T>(call: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([call, timeout])
      .catch((error: unknown) => {
        throw new ServiceUnavailableError('Stream limits are unavailable right now; try again', { cause: error });
      })
      .finally(() => clearTimeout(timer));
  };

  const run = async (name: ScriptName, key: string, args: string[]): Promise<unknown> => {
    try {
      return await send(key, ['EVALSHA', SHAS[name], '1', key, ...args]);
    } catch (error) {
      // The script cache is empty after a restart, a flush or a failover: EVAL loads it again.
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return send(key, ['EVAL', SCRIPTS[name], '1', key, ...args]);
    }
  };

  return {
    async acquire(keyId, streamId, limit) {
      if (limit <= 0) return false;
      const taken = (await bounded(run('acquire', prefix + keyId, [member(streamId), String(limit), String(ttlMs)]))) === 1;
      if (taken) {
        let mine = held.get(keyId);
        if (!mine) held.set(keyId, (mine = new Set()));
        mine.add(streamId);
      }
      return taken;
    },
    async release(keyId, streamId) {
      // Forgotten first: even if Redis does not answer, the heartbeat stops keeping it alive.
      const mine = held.get(keyId);
      mine?.delete(streamId);
      if (mine?.size === 0) held.delete(keyId);
      await bounded(send(prefix + keyId, ['ZREM', prefix + keyId, member(streamId)]));
    },
    async refresh() {
      const calls: Promise<unknown>[] = [];
      for (const [keyId, streams] of held) {
        const members = [...streams].map(member);
        for (let start = 0; start < members.length; start += REFRESH_CHUNK) {
          calls.push(run('refresh', prefix + keyId, [String(ttlMs), ...members.slice(start, start + REFRESH_CHUNK)]));
        }
      }
      // Issued together: node-redis pipelines them (per node on a cluster).
      await bounded(Promise.all(calls));
    },
    async count(keyId) {
      return Number(await bounded(run('count', prefix + keyId, [])));
    },
  };
};
