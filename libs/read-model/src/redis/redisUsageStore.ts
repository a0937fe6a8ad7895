import type { UsageCount, UsageGranularity, UsageStore } from '../usageStore.js';
import { usageBucketOf, usageBucketsBetween } from '../usageBuckets.js';
import { isNoScript, type RedisCommands, type Reply } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';
import { hashEntries } from './redisReplies.js';

/** Counts per hour live in one hash per key and day (`HH` → count); answers the hours asked for. */
const hourCounts = async (commands: RedisCommands, key: RedisKeys, keyId: string, buckets: readonly string[]): Promise<Reply[]> => {
  const days = [...new Set(buckets.map((b) => b.slice(0, 10)))];
  const perDay = await Promise.all(days.map((day) => commands.send(key.usage(keyId), ['HGETALL', key.usageHours(keyId, day)], true)));
  const byBucket = new Map<string, Reply>();
  days.forEach((day, i) => {
    for (const [hour, count] of hashEntries(perDay[i])) byBucket.set(`${day}T${hour}`, count);
  });
  return buckets.map((b) => byBucket.get(b) ?? null);
};

const seriesCounts = (commands: RedisCommands, key: RedisKeys, keyId: string, granularity: UsageGranularity, buckets: string[]): Promise<Reply[]> => {
  if (granularity === 'hour') return hourCounts(commands, key, keyId, buckets);
  const hash = granularity === 'day' ? key.usageDays(keyId) : key.usageMonths(keyId);
  return commands.send(key.usage(keyId), ['HMGET', hash, ...buckets], true) as Promise<Reply[]>;
};

/**
 * Request counts per key on Redis, one script per count (the key's hashes share its hash tag).
 * Outside the generations: the generational stores keep it under the root namespace.
 */
export const createRedisUsageStore = (commands: RedisCommands, key: RedisKeys, hourBucketTtlSeconds = 35 * 24 * 3600): UsageStore => {
  const hourTtl = String(hourBucketTtlSeconds);
  // Counting is not idempotent: a count that timed out could still land, and the recorder would
  // count it again. Counts are written in the background, off the request path, so they wait.
  const writes = commands.unbounded;
  const count = ({ keyId, at, count: n }: UsageCount): Promise<Reply> => {
    const hour = usageBucketOf(at, 'hour');
    const day = usageBucketOf(at, 'day');
    const month = usageBucketOf(at, 'month');
    const args = [String(n), at.toISOString(), key.usageHours(keyId, day), hour.slice(11), key.usageDays(keyId), day, key.usageMonths(keyId), month, hourTtl];
    return writes.evalsha('USAGE', [key.usage(keyId)], args);
  };

  return {
    async recordUsage(counts) {
      let results = await Promise.allSettled(counts.map(count));
      if (results.some((r) => r.status === 'rejected' && isNoScript(r.reason))) {
        await writes.loadScripts();
        // Counting is not idempotent: repeat only the counts Redis refused.
        results = await Promise.allSettled(counts.filter((_, i) => results[i]?.status === 'rejected').map(count));
      }
      const error = results.find((r) => r.status === 'rejected');
      if (error) throw error.reason;
    },
    async getUsage(keyIds) {
      const replies = await Promise.all(keyIds.map((keyId) => commands.send(key.usage(keyId), ['HMGET', key.usage(keyId), 'count', 'last'], true)));
      return keyIds.map((keyId, i) => {
        const [n, last] = (replies[i] ?? []) as Reply[];
        return { keyId, requestCount: typeof n === 'string' ? Number(n) : 0, lastUsedAt: typeof last === 'string' ? last : null };
      });
    },
    async getUsageSeries(keyId, granularity, from, to) {
      const buckets = usageBucketsBetween(from, to, granularity);
      if (buckets.length === 0) return [];
      const counts = await seriesCounts(commands, key, keyId, granularity, buckets);
      return buckets.map((bucket, i) => ({ bucket, count: counts[i] == null ? 0 : Number(counts[i]) }));
    },
  };
};
