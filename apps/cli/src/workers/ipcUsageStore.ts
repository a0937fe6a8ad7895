import type { UsageCount, UsageStore } from '@pubstream/read-model';
import type { IpcClient, IpcHandlers } from './workerIpc.js';

type UsageWriter = Pick<UsageStore, 'recordUsage'>;

/**
 * A worker's usage counts go to the primary's usage store, which the admin reads: the dashboard
 * shows every worker's requests. The API flushes them in batches (apps/api/src/usageRecorder.ts)
 * and keeps a batch that failed for the next flush.
 */
export const createIpcUsageStore = (primary: IpcClient): UsageWriter => ({
  async recordUsage(counts) {
    await primary.call('usage.record', [counts.map((count) => ({ keyId: count.keyId, at: count.at.getTime(), count: count.count }))]);
  },
});

/** The primary's side: counts written to its usage store. */
export const usageHandlers = (store: UsageWriter): IpcHandlers => ({
  'usage.record': (counts: readonly { keyId: string; at: number; count: number }[]) =>
    store.recordUsage(counts.map((count): UsageCount => ({ keyId: count.keyId, at: new Date(count.at), count: count.count }))),
});
