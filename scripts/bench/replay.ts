import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteEventStore, openSqliteDatabase, type EventStore, type StreamAppend } from '@pubstream/event-store';
import { rebuildReadModels } from '@pubstream/projector';
import { connectRedis, createMemoryStores, createRedisStores, newGenerationNamespace, type Stores } from '@pubstream/read-model';
import type { ScenarioContext } from './scenarioContext.js';

/** A log of `total` events: one collection, items created, then a quarter of them updated. */
const buildLog = async (store: EventStore, total: number): Promise<void> => {
  const occurredAt = new Date().toISOString();
  const meta = { occurredAt };
  await store.appendToStream('collection-replay', [{ type: 'CollectionCreated', data: { slug: 'replay', name: 'Replay', sortableFields: [{ name: 'score', type: 'number' }] }, metadata: meta }], {
    expectedRevision: 'no_stream',
  });
  const creates = Math.floor(((total - 1) * 4) / 5);
  const updates = total - 1 - creates;
  const item = (i: number) => `r-${String(i).padStart(7, '0')}`;
  for (let start = 0; start < creates; start += 1_000) {
    const batch: StreamAppend[] = [];
    for (let i = start; i < Math.min(creates, start + 1_000); i++) {
      batch.push({
        streamName: `item-${item(i)}`,
        expectedRevision: 'no_stream',
        events: [{ type: 'ItemCreated', data: { id: randomUUID(), dataId: item(i), collection: 'replay', data: { title: `Item ${i}`, score: i % 1000 } }, metadata: meta }],
      });
    }
    await store.appendToStreams(batch);
  }
  for (let start = 0; start < updates; start += 1_000) {
    const batch: StreamAppend[] = [];
    for (let i = start; i < Math.min(updates, start + 1_000); i++) {
      batch.push({
        streamName: `item-${item(i)}`,
        expectedRevision: 0,
        events: [{ type: 'ItemUpdated', data: { dataId: item(i), collection: 'replay', data: { title: `Item ${i} v2`, score: (i * 7) % 1000 } }, metadata: meta }],
      });
    }
    await store.appendToStreams(batch);
  }
};

/** The real rebuild path (`pubstream projections rebuild`): rebuildReadModels from position 0
 * into an empty target, in batches of 1,000 (its default). Events applied per second. */
const timeRebuild = async (store: EventStore, target: Stores): Promise<number> => {
  const result = await rebuildReadModels({ eventStore: store, target });
  return result.eventsPerSecond;
};

/** Events/s of a full projection rebuild from the SQLite log, into memory and into Redis. */
export const measureReplay = async (redisUrl: string, context: ScenarioContext): Promise<void> => {
  const total = context.quick ? 50_000 : 200_000;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pubstream-replay-'));
  const store = createSqliteEventStore(openSqliteDatabase(path.join(dir, 'events.db')));
  try {
    await buildLog(store, total);
    const label = `replay rebuild of ${total.toLocaleString('en-US')} events`;
    const memory = await timeRebuild(store, createMemoryStores());
    context.rows.push({ scenario: label, profile: 'embedded', unit: 'events/s', value: memory, target: '≥ 50,000 events/s', met: memory >= 50_000 });
    console.log(`  [embedded] ${label}: ${Math.round(memory)} events/s`);
    const client = await connectRedis(redisUrl, () => undefined);
    try {
      const redisRate = await timeRebuild(store, createRedisStores(client, { namespace: newGenerationNamespace('ps', new Date()) }));
      const store_ = context.rows.find((r) => r.scenario.startsWith('redis-benchmark'));
      context.rows.push({
        scenario: label,
        profile: 'redis',
        unit: 'events/s',
        value: redisRate,
        baseline: store_ ? 'redis-benchmark GET' : undefined,
        ratio: store_ ? redisRate / store_.value : undefined,
        target: '≥ 50,000 events/s',
        met: redisRate >= 50_000,
      });
      console.log(`  [redis] ${label}: ${Math.round(redisRate)} events/s`);
      await client.flushAll();
    } finally {
      await client.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
