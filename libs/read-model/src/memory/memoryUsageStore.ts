import { usageBucketOf, usageBucketsBetween } from '../usageBuckets.js';
import type { KeyUsage, UsageStore } from '../usageStore.js';

interface UsageState {
  requestCount: number;
  lastUsedAt: string | null;
  readonly buckets: Map<string, number>;
}

/** Request counts per key in process memory: the usage store of the embedded profile. */
export const createMemoryUsageStore = (): UsageStore => {
  const usage = new Map<string, UsageState>();

  const usageOf = (keyId: string): UsageState => {
    let state = usage.get(keyId);
    if (!state) {
      state = { requestCount: 0, lastUsedAt: null, buckets: new Map() };
      usage.set(keyId, state);
    }
    return state;
  };

  return {
    async recordUsage(counts) {
      for (const { keyId, at, count } of counts) {
        const state = usageOf(keyId);
        state.requestCount += count;
        const iso = at.toISOString();
        if (state.lastUsedAt === null || iso > state.lastUsedAt) state.lastUsedAt = iso;
        for (const granularity of ['hour', 'day', 'month'] as const) {
          const bucket = usageBucketOf(at, granularity);
          state.buckets.set(bucket, (state.buckets.get(bucket) ?? 0) + count);
        }
      }
    },
    async getUsage(keyIds) {
      return keyIds.map((keyId): KeyUsage => {
        const state = usage.get(keyId);
        return { keyId, requestCount: state?.requestCount ?? 0, lastUsedAt: state?.lastUsedAt ?? null };
      });
    },
    async getUsageSeries(keyId, granularity, from, to) {
      const buckets = usage.get(keyId)?.buckets;
      return usageBucketsBetween(from, to, granularity).map((bucket) => ({ bucket, count: buckets?.get(bucket) ?? 0 }));
    },
  };
};
