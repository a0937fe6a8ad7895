import { createMemoryStores } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createIpcUsageStore, usageHandlers } from './ipcUsageStore.js';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, serveIpc } from './workerIpc.js';

describe('IPC usage store', () => {
  it("adds every worker's counts to the primary's usage store, in the hour they happened", async () => {
    const stores = createMemoryStores({ now: () => new Date('2026-01-15T12:00:00Z') });
    const writers = [1, 2].map(() => {
      const pair = createMemoryChannelPair();
      serveIpc(pair.primary, usageHandlers(stores.usage));
      return createIpcUsageStore(createIpcClient(pair.worker, { timeoutMs: 1_000 }));
    });
    await writers[0]?.recordUsage([{ keyId: 'k', at: new Date('2026-01-15T10:15:00Z'), count: 3 }]);
    await writers[1]?.recordUsage([{ keyId: 'k', at: new Date('2026-01-15T11:05:00Z'), count: 2 }]);
    await expect(stores.usage.getUsage(['k'])).resolves.toEqual([{ keyId: 'k', requestCount: 5, lastUsedAt: '2026-01-15T11:05:00.000Z' }]);
    const series = await stores.usage.getUsageSeries('k', 'hour', new Date('2026-01-15T10:00:00Z'), new Date('2026-01-15T11:00:00Z'));
    expect(series.filter((bucket) => bucket.count > 0)).toEqual([
      { bucket: '2026-01-15T10', count: 3 },
      { bucket: '2026-01-15T11', count: 2 },
    ]);
  });
});
