import { createHash } from 'node:crypto';
import { ValidationError } from '@pubstream/domain';
import type { RedisClientType, RedisClusterType } from 'redis';
import {
  FencedError,
  type CollectionRecord,
  type ItemRecord,
  type KeyRecord,
  type Lease,
  type PlanRecord,
  type ReadModel,
  type ReadModelOp,
} from './readModel.js';
import { checkPageQuery } from './memoryReadModel.js';
import { redisKeys } from './redisKeys.js';
import * as scripts from './redisScripts.js';
import { planWriteChunks, type WriteChunk } from './redisWriteChunks.js';
import { usageBucketOf, usageBucketsBetween } from './usageBuckets.js';

/** A connected node-redis v6 client: one Redis, or a Redis Cluster. */
export type RedisReadModelClient = RedisClientType | RedisClusterType;

export interface RedisReadModelOptions {
  /** Prefix of every key; a rebuild writes a new generation under a new namespace. Default `ps`. */
  readonly namespace?: string;
  /** How long per-hour usage buckets live. Default 35 days. */
  readonly hourBucketTtlSeconds?: number;
  /** Bounds of one write call (entries, argument bytes). Defaults 100 entries, 256 KiB: a call
   * then holds Redis for a few milliseconds at most. */
  readonly writeChunk?: { readonly maxEntries?: number; readonly maxBytes?: number };
}

type Reply = unknown;
type ScriptName = keyof typeof scripts;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const SHAS = Object.fromEntries(Object.entries(scripts).map(([name, text]) => [name, sha1(text)])) as Record<ScriptName, string>;

const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT');
const parse = <T>(json: Reply): T | null => (typeof json === 'string' ? (JSON.parse(json) as T) : null);

/**
 * The read model on Redis or Redis Cluster (key design in docs/read-models.md). Writes go through
 * one batched Lua script, every record guarded by its version: on one node a call carries up to 100
 * ops on any keys, on a cluster up to 100 entries of one hash tag. All calls of a batch are
 * pipelined (issued before any reply is awaited) and the checkpoint is written after their effects.
 */
export const createRedisReadModel = (client: RedisReadModelClient, options: RedisReadModelOptions = {}): ReadModel => {
  const ns = options.namespace ?? 'ps';
  const hourTtl = String(options.hourBucketTtlSeconds ?? 35 * 24 * 3600);
  const cluster = 'masters' in client ? (client as RedisClusterType) : null;
  const single = cluster ? null : (client as RedisClientType);

  const send = (firstKey: string, args: string[], readonly = false): Promise<Reply> =>
    cluster ? cluster.sendCommand(firstKey, readonly, args) : (single as RedisClientType).sendCommand(args);

  const key = redisKeys(ns);

  const loadScripts = async (): Promise<void> => {
    const nodes = cluster ? await Promise.all(cluster.masters.map((master) => cluster.nodeClient(master))) : [single as RedisClientType];
    await Promise.all(nodes.flatMap((node) => Object.values(scripts).map((text) => node.scriptLoad(text))));
  };

  const evalshaRaw = (name: ScriptName, keys: string[], args: string[], readonly = false): Promise<Reply> =>
    send(keys[0] as string, ['EVALSHA', SHAS[name], String(keys.length), ...keys, ...args], readonly);

  /** A single script call; loads the scripts when Redis lost them (restart, flush, failover). */
  const run = async (name: ScriptName, keys: string[], args: string[], readonly = false): Promise<Reply> => {
    try {
      return await evalshaRaw(name, keys, args, readonly);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      await loadScripts();
      return evalshaRaw(name, keys, args, readonly);
    }
  };

  /** Issues every chunk of the batch at once (pipelined, per node on a cluster) and reports per
   * op whether it changed anything, or the first error that is not NOSCRIPT. */
  const writeAll = async (ops: readonly ReadModelOp[], lease: Lease | undefined): Promise<{ applied: boolean[]; noScript: boolean }> => {
    const fence = lease && !cluster ? [key.lease(lease.name), String(lease.token)] : ['', ''];
    const chunks = planWriteChunks(ops, key, { ...options.writeChunk, cluster: cluster !== null });
    const settled = await Promise.allSettled(chunks.map((chunk) => send(chunk.routeKey, ['EVALSHA', SHAS.APPLY, '1', chunk.routeKey, ...fence].concat(chunk.args))));
    let noScript = false;
    const applied = ops.map(() => false);
    settled.forEach((result, c) => {
      if (result.status === 'rejected') {
        if (!isNoScript(result.reason)) throw result.reason;
        noScript = true;
        return;
      }
      if (result.value === -1) throw new FencedError();
      const flags = result.value as Reply[];
      (chunks[c] as WriteChunk).opOf.forEach((op, e) => {
        if (flags[e] === 1) applied[op] = true;
      });
    });
    return { applied, noScript };
  };

  const checkLease = async (lease: Lease): Promise<void> => {
    const current = await send(key.lease(lease.name), ['GET', key.lease(lease.name)], true);
    if (typeof current !== 'string' || current.split(' ', 1)[0] !== String(lease.token)) throw new FencedError();
  };

  const usageKeys = (keyId: string) => ({ base: key.usage(keyId), hours: (day: string) => `${key.usage(keyId)}:h:${day}` });

  return {
    async apply(ops, checkpoint, applyOptions) {
      const lease = applyOptions?.lease;
      // On one node every write call checks the lease itself. On a cluster a script can only read
      // the lease when it shares its slot, so the lease is checked once before the batch and again,
      // atomically, with the checkpoint (the window in between is in docs/read-models.md).
      if (lease && cluster) await checkLease(lease);
      const first = await writeAll(ops, lease);
      let applied = first.applied;
      if (first.noScript) {
        // Redis lost the scripts (restart, flush): load them and run the batch again. The ops that
        // went through are no-ops the second time, so the first answer is kept for them.
        await loadScripts();
        const again = await writeAll(ops, lease);
        applied = applied.map((first, i) => first || (again.applied[i] ?? false));
      }
      const reply = await run('CHECKPOINT', [key.checkpoints], [checkpoint.projection, String(checkpoint.position), lease ? key.lease(lease.name) : '', lease ? String(lease.token) : '']);
      if (reply === -1) throw new FencedError();
      return applied;
    },

    async acquireLease(name, holder, ttlMs) {
      const token = await run('LEASE_ACQUIRE', [key.lease(name), key.leaseTokens(name)], [holder, String(Math.max(1, Math.ceil(ttlMs)))]);
      return typeof token === 'number' ? { name, holder, token } : null;
    },
    async renewLease(lease, ttlMs) {
      return (await run('LEASE_RENEW', [key.lease(lease.name)], [String(lease.token), String(Math.max(1, Math.ceil(ttlMs)))])) === 1;
    },
    async releaseLease(lease) {
      await run('LEASE_RENEW', [key.lease(lease.name)], [String(lease.token), '']);
    },
    async getCheckpoint(projection) {
      const reply = await send(key.checkpoints, ['HGET', key.checkpoints, projection], true);
      return typeof reply === 'string' ? Number(reply) : 0;
    },

    async getItem(dataId) {
      const k = key.item(dataId);
      return parse<ItemRecord>(await send(k, ['GET', k], true));
    },
    async getItems(dataIds) {
      if (dataIds.length === 0) return [];
      const keys = dataIds.map(key.item);
      if (!cluster) return ((await send(keys[0] as string, ['MGET', ...keys], true)) as Reply[]).map((json) => parse<ItemRecord>(json));
      // Every item has its own slot: one GET per distinct key, all issued at once, so node-redis
      // pipelines them per node and the batch costs one round trip of latency.
      const unique = [...new Set(keys)];
      const replies = await Promise.all(unique.map((k) => send(k, ['GET', k], true)));
      const byKey = new Map(unique.map((k, i) => [k, parse<ItemRecord>(replies[i])]));
      return keys.map((k) => byKey.get(k) ?? null);
    },
    async getCollection(slug) {
      const rec = `${key.collectionPrefix(slug)}rec`;
      return parse<CollectionRecord>(await send(rec, ['GET', rec], true));
    },
    async listCollections() {
      const values = (await send(key.collectionList, ['HVALS', key.collectionList], true)) as Reply[];
      return values.map((json) => parse<CollectionRecord>(json) as CollectionRecord).sort((a, b) => (a.slug < b.slug ? -1 : 1));
    },
    async getCollectionPage(slug, query) {
      checkPageQuery(query);
      const prefix = key.collectionPrefix(slug);
      const builtIn = query.sort === 'createdAt' || query.sort === 'updatedAt' || query.sort === 'dataId';
      const reply = await run('COLLECTION_PAGE', [`${prefix}rec`], [prefix, query.sort, builtIn ? 'id' : 'field', query.order, String(query.offset), String(query.limit)], true);
      if (!Array.isArray(reply)) return null;
      if (reply[0] === -1) throw new ValidationError(`Unknown sort field "${query.sort}"`);
      const [total, ...jsons] = reply as Reply[];
      return { total: Number(total), items: jsons.map((json) => parse<ItemRecord>(json) as ItemRecord) };
    },
    async countItems(slug) {
      const items = `${key.collectionPrefix(slug)}items`;
      return Number(await send(items, ['HLEN', items], true));
    },
    async getKeyByHash(keyHash) {
      const k = key.keyByHash(keyHash);
      return parse<KeyRecord>(await send(k, ['GET', k], true));
    },
    async getKey(keyId) {
      return parse<KeyRecord>(await send(key.keyList, ['HGET', key.keyList, keyId], true));
    },
    async listKeys() {
      const values = (await send(key.keyList, ['HVALS', key.keyList], true)) as Reply[];
      return values.map((json) => parse<KeyRecord>(json) as KeyRecord).sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
    },
    async getPlan() {
      return parse<PlanRecord>(await send(key.plan, ['GET', key.plan], true));
    },

    async recordUsage(counts) {
      const issue = (batch: typeof counts) =>
        Promise.allSettled(
          batch.map(({ keyId, at, count }) => {
            const { base, hours } = usageKeys(keyId);
            const hour = usageBucketOf(at, 'hour');
            return evalshaRaw('USAGE', [base], [String(count), at.toISOString(), hours(hour.slice(0, 10)), hour.slice(11), usageBucketOf(at, 'day'), usageBucketOf(at, 'month'), hourTtl]);
          }),
        );
      let results = await issue(counts);
      if (results.some((r) => r.status === 'rejected' && isNoScript(r.reason))) {
        await loadScripts();
        // Counting is not idempotent: repeat only the counts Redis refused.
        results = await issue(counts.filter((_, i) => results[i]?.status === 'rejected'));
      }
      const error = results.find((r) => r.status === 'rejected');
      if (error) throw error.reason;
    },
    async getUsage(keyIds) {
      const replies = await Promise.all(keyIds.map((keyId) => send(key.usage(keyId), ['HMGET', key.usage(keyId), 'count', 'last'], true)));
      return keyIds.map((keyId, i) => {
        const [count, last] = (replies[i] ?? []) as Reply[];
        return { keyId, requestCount: typeof count === 'string' ? Number(count) : 0, lastUsedAt: typeof last === 'string' ? last : null };
      });
    },
    async getUsageSeries(keyId, granularity, from, to) {
      const buckets = usageBucketsBetween(from, to, granularity);
      if (buckets.length === 0) return [];
      const { base, hours } = usageKeys(keyId);
      let counts: Reply[];
      if (granularity === 'hour') {
        const days = [...new Set(buckets.map((b) => b.slice(0, 10)))];
        const perDay = await Promise.all(days.map((day) => send(base, ['HGETALL', hours(day)], true)));
        const byBucket = new Map<string, Reply>();
        days.forEach((day, i) => {
          const reply = perDay[i];
          // RESP3 answers HGETALL with a map, RESP2 with a flat list.
          const entries: [string, Reply][] = Array.isArray(reply)
            ? Array.from({ length: reply.length / 2 }, (_, j) => [String(reply[2 * j]), reply[2 * j + 1]])
            : reply instanceof Map ? [...reply.entries()].map(([k, v]) => [String(k), v]) : Object.entries((reply ?? {}) as Record<string, Reply>);
          for (const [hour, count] of entries) byBucket.set(`${day}T${hour}`, count);
        });
        counts = buckets.map((b) => byBucket.get(b) ?? null);
      } else {
        const hash = granularity === 'day' ? `${base}:d` : `${base}:mo`;
        counts = (await send(base, ['HMGET', hash, ...buckets], true)) as Reply[];
      }
      return buckets.map((bucket, i) => ({ bucket, count: counts[i] == null ? 0 : Number(counts[i]) }));
    },

    async ping() {
      if (cluster) await Promise.all(cluster.masters.map(async (master) => (await cluster.nodeClient(master)).ping()));
      else await (single as RedisClientType).ping();
    },
    async close() {
      await client.close();
    },
  };
};
