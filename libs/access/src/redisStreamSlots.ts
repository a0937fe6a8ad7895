import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '@pubstream/domain';
import { withRedisTimeout, type RedisReadModelClient } from '@pubstream/read-model';
import { createHeldStreams } from './heldStreams.js';
import { luaScript, redisSender, scriptRunner } from './redisScripts.js';
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
  acquire: luaScript(`${NOW}local ttl = tonumber(ARGV[3])
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], string.format('%.0f', now + ttl), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`),
  // ARGV: ttl ms, members of this node. A member that expired meanwhile (the node lost Redis for
  // longer than the TTL) is added back: its stream is still open.
  refresh: luaScript(`${NOW}local ttl = tonumber(ARGV[1])
local expires = string.format('%.0f', now + ttl)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expires, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`),
  count: luaScript(`${NOW}return redis.call('ZCARD', KEYS[1])`),
} as const;

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
  const send = redisSender(options.client);
  const run = scriptRunner(options.client);
  const held = createHeldStreams();
  const member = (streamId: string): string => `${nodeId}:${streamId}`;
  const bounded = <T>(call: Promise<T>): Promise<T> => boundedSlotCall(call, timeoutMs);

  return {
    async acquire(keyId, streamId, limit) {
      if (limit <= 0) return false;
      const taken = (await bounded(run(SCRIPTS.acquire, prefix + keyId, [member(streamId), String(limit), String(ttlMs)]))) === 1;
      if (taken) held.add(keyId, streamId);
      return taken;
    },
    async release(keyId, streamId) {
      // Forgotten first: even if Redis does not answer, the heartbeat stops keeping it alive.
      held.remove(keyId, streamId);
      await bounded(send(prefix + keyId, ['ZREM', prefix + keyId, member(streamId)]));
    },
    async refresh() {
      const calls = held.chunks(REFRESH_CHUNK).map(({ keyId, streamIds }) => run(SCRIPTS.refresh, prefix + keyId, [String(ttlMs), ...streamIds.map(member)]));
      // Issued together: node-redis pipelines them (per node on a cluster).
      await bounded(Promise.all(calls));
    },
    async count(keyId) {
      return Number(await bounded(run(SCRIPTS.count, prefix + keyId, [])));
    },
  };
};

/** Bounded in time: a frozen or unreachable Redis gives 503, never a hang. */
const boundedSlotCall = <T>(call: Promise<T>, timeoutMs: number): Promise<T> =>
  withRedisTimeout(call, timeoutMs, (error) => new ServiceUnavailableError('Stream limits are unavailable right now; try again', { cause: error }));
