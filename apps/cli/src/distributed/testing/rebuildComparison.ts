import { randomUUID } from 'node:crypto';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { compareReadModels, rebuildReadModels, type ReadModelDifference } from '@pubstream/projector';
import { createRedisStores, type RedisReadModelClient } from '@pubstream/read-model';
import { eventually } from '@pubstream/testing';

/**
 * Waits until the live read model (namespace `ps`) has applied the whole log, then rebuilds the
 * log into a fresh namespace beside it and returns the records that differ: [] when nothing was
 * skipped, applied twice into a wrong state, or applied out of order.
 */
export const differencesFromRebuild = async (eventStoreUrl: string, client: RedisReadModelClient, timeoutMs = 30_000): Promise<ReadModelDifference[]> => {
  const eventStore = createSqliteEventStore(openSqliteDatabase(eventStoreUrl.replace(/^sqlite:/, '')));
  try {
    const live = createRedisStores(client);
    const head = await eventStore.headPosition();
    await eventually('the projector to catch up', async () => ((await live.projections.getCheckpoint('projector')) >= head ? true : undefined), timeoutMs, 100);
    const rebuilt = createRedisStores(client, { namespace: `rebuilt-${randomUUID()}` });
    await rebuildReadModels({ eventStore, target: rebuilt });
    return await compareReadModels(live, rebuilt);
  } finally {
    await eventStore.close();
  }
};
