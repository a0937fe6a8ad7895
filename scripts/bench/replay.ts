import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteEventStore, openSqliteDatabase, type EventStore, type StreamAppend } from '@pubstream/event-store';
import { rebuildReadModels } from '@pubstream/projector';
import { connectRedis, createMemoryStores, createRedisStores, newGenerationNamespace, type Stores } from '@pubstream/read-model';
import { applyCeiling, recordRebuildOps } from './replayCeiling.js';
import { redisCpuSeconds } from './redisBaseline.js';
import type { ScenarioContext } from './scenarioContext.js';

/** A log of `total` events: one collection, items created, then a quarter of them updated. */
export const buildReplayLog = async (store: EventStore, total: number): Promise<void> => {
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
    await buildReplayLog(store, total);
    const label = `replay rebuild of ${total.toLocaleString('en-US')} events`;
    const memory = await timeRebuild(store, createMemoryStores());
    context.rows.push({ scenario: label, profile: 'embedded', unit: 'events/s', value: memory, target: '≥ 50,000 events/s', met: memory >= 50_000 });
    console.log(`  [embedded] ${label}: ${Math.round(memory)} events/s`);
    const client = await connectRedis(redisUrl, () => undefined);
    try {
      const recorded = await recordRebuildOps(store);
      const generation = (n: number) => createRedisStores(client, { namespace: newGenerationNamespace(`ps${n}`, new Date()) });
      // Alternating ceiling and rebuild, twice, so both see the same drift of the machine's load.
      const ceilings: number[] = [];
      const rebuilds: number[] = [];
      // Redis CPU per event of each run (µs), which the machine's load distorts far less than a rate.
      const port = Number(new URL(redisUrl).port);
      const cpuPerEvent: string[] = [];
      const redisCpu = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
        const before = redisCpuSeconds(port);
        const value = await run();
        cpuPerEvent.push(`${label} ${(((redisCpuSeconds(port) - before) * 1e6) / total).toFixed(1)}`);
        return value;
      };
      for (let round = 0; round < 2; round++) {
        ceilings.push(await redisCpu('ceiling', () => applyCeiling(recorded, generation(round * 2))));
        rebuilds.push(await redisCpu('rebuild', () => timeRebuild(store, generation(round * 2 + 1))));
        await client.flushAll();
      }
      const ceiling = Math.max(...ceilings);
      const redisRate = Math.max(...rebuilds);
      context.rows.push({ scenario: `pipelined APPLY ceiling, ${total.toLocaleString('en-US')} events (ops pre-folded, same history, 4 batches in flight)`, profile: 'redis', unit: 'events/s', value: ceiling });
      context.rows.push({
        scenario: label,
        profile: 'redis',
        unit: 'events/s',
        value: redisRate,
        baseline: 'pipelined APPLY ceiling',
        ratio: redisRate / ceiling,
        target: '≥ 50,000 events/s',
        met: redisRate >= 50_000,
        note: `best of 2; rebuilds ${rebuilds.map(Math.round).join(', ')}; ceilings ${ceilings.map(Math.round).join(', ')}; Redis CPU µs/event: ${cpuPerEvent.join(', ')}`,
      });
      console.log(`  [redis] ${label}: ${Math.round(redisRate)} events/s; ceiling ${Math.round(ceiling)} events/s; Redis CPU µs/event: ${cpuPerEvent.join(', ')}`);
      await client.flushAll();
    } finally {
      await client.close();
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
