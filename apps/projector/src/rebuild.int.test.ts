import { createSqliteEventStore, openSqliteDatabase, type EventStore } from '@pubstream/event-store';
import { createMemoryStores } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createProjector, publishedCheckpointName } from './projector.js';
import { projectionStatus } from './projectionStatus.js';
import { rebuildReadModels } from './rebuild.js';
import { createLineProgressReporter } from './rebuildProgress.js';
import { createTestChangeStream } from './testing/testChangeStream.js';

const uuidOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** 1 collection, `count` items of which every third is updated and every fifth deleted, a key, a plan. */
const writeLog = async (eventStore: EventStore, count: number): Promise<number> => {
  const meta = (n: number) => ({ occurredAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() });
  await eventStore.appendToStream('collection-books', [{ type: 'CollectionCreated', data: { slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] }, metadata: meta(0) }], { expectedRevision: 'any' });
  for (let i = 1; i <= count; i++) {
    const dataId = `b${i}`;
    const events = [{ type: 'ItemCreated', data: { id: uuidOf(i), dataId, collection: 'books', data: { year: 1900 + (i % 50) } }, metadata: meta(i) }];
    if (i % 3 === 0) events.push({ type: 'ItemUpdated', data: { dataId, collection: 'books', data: { year: 2000 + i } } as never, metadata: meta(i + 1) });
    if (i % 5 === 0) events.push({ type: 'ItemDeleted', data: { dataId, collection: 'books' } as never, metadata: meta(i + 2) });
    await eventStore.appendToStream(`item-${dataId}`, events, { expectedRevision: 'any' });
  }
  await eventStore.appendToStream('apikey-k', [{ type: 'ApiKeyCreated', data: { keyId: 'k', name: 'v1 key', type: 'live', keyHash: 'c'.repeat(64), last4: 'abcd', domains: 'a.com,b.com', rateLimit: 5 }, metadata: { ...meta(9_999), schemaVersion: 1 } }], { expectedRevision: 'any' });
  const result = await eventStore.appendToStream('project', [{ type: 'PlanChanged', data: { plan: 'pro', monthlyQuota: 1000 }, metadata: meta(10_000) }], { expectedRevision: 'any' });
  return result.position;
};

const liveModel = async (eventStore: EventStore, head: number) => {
  const stores = createMemoryStores();
  const { changeStream } = await createTestChangeStream();
  const projector = createProjector({ eventStore, stores, changeStream });
  projector.start();
  expect(await projector.waitFor(head, 10_000)).toBe(true);
  await projector.stop();
  return stores;
};

describe('rebuildReadModels on SQLite + memory read models', () => {
  it('builds a new generation equal to the live one (dry-run compare finds no difference)', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const head = await writeLog(eventStore, 60);
    const live = await liveModel(eventStore, head);
    const target = createMemoryStores();
    const lines: string[] = [];
    const result = await rebuildReadModels({ eventStore, target, live, dryRun: true, batchSize: 7, progress: createLineProgressReporter((l) => void lines.push(l)), progressEveryMs: 0 });
    expect(result).toMatchObject({ position: head, resumedFrom: 0, aborted: false, differences: [] });
    expect(await target.projections.getCheckpoint('projector')).toBe(head);
    expect(await target.projections.getCheckpoint(publishedCheckpointName('projector'))).toBe(head);
    expect((await target.keys.getKey('k'))?.allowedDomains).toEqual(['a.com', 'b.com']);
    expect(lines.at(-1)).toMatch(new RegExp(`^rebuild ${head}/${head} \\(100%\\) \\d+ events/s, ETA .*done: ${result.events} events\\n$`));
    expect(lines.length).toBeGreaterThan(2);
  });

  it('a dry run reports records that differ from the live generation', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const head = await writeLog(eventStore, 10);
    const live = await liveModel(eventStore, head);
    // The live model drifted: an item it should not hold, and a changed plan.
    await live.projections.apply(
      [
        { kind: 'item.put', item: { id: uuidOf(99), dataId: 'ghost', collectionId: 'books', data: {}, createdAt: 'x', updatedAt: 'x', version: 0, position: 0 } },
        { kind: 'plan.put', plan: { plan: 'free', monthlyQuota: null, version: 5 } },
      ],
      { projection: 'manual', position: 0 },
    );
    const result = await rebuildReadModels({ eventStore, target: createMemoryStores(), live, dryRun: true });
    expect(result.differences?.map((d) => `${d.kind}:${d.id}`)).toEqual(['item:ghost', 'plan:plan']);
    expect(result.differences?.[0]?.rebuilt).toBeNull();
  });

  it('resumes from its own checkpoint after being stopped halfway, and ends with the same result', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const head = await writeLog(eventStore, 40);
    const live = await liveModel(eventStore, head);
    const target = createMemoryStores();
    const controller = new AbortController();
    const first = await rebuildReadModels({
      eventStore,
      target,
      batchSize: 10,
      signal: controller.signal,
      progress: { update: (p) => (p.events >= 20 ? controller.abort() : undefined), done: () => {} },
      progressEveryMs: 0,
    });
    expect(first.aborted).toBe(true);
    expect(first.position).toBeGreaterThan(0);
    expect(first.position).toBeLessThan(head);

    const second = await rebuildReadModels({ eventStore, target, live, dryRun: true, batchSize: 10 });
    expect(second).toMatchObject({ resumedFrom: first.position, position: head, aborted: false, differences: [] });
  });

  it('catches up with events written while it runs', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    await writeLog(eventStore, 20);
    let written = false;
    const target = createMemoryStores();
    const result = await rebuildReadModels({
      eventStore,
      target,
      batchSize: 5,
      progressEveryMs: 0,
      progress: {
        update: () => {
          if (written) return;
          written = true;
          void eventStore.appendToStream('item-late', [{ type: 'ItemCreated', data: { id: uuidOf(500), dataId: 'late', collection: 'books', data: {} } }], { expectedRevision: 'any' });
        },
        done: () => {},
      },
    });
    expect(result.position).toBe(await eventStore.headPosition());
    expect(await target.readModel.getItem('late')).not.toBeNull();
  });
});

describe('projectionStatus', () => {
  it('reports every registered projection with checkpoint, head, lag and the oldest resumable position', async () => {
    const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const head = await writeLog(eventStore, 5);
    const stores = createMemoryStores();
    await stores.projections.apply([], { projection: 'projector', position: 3 });
    // A clock one minute ahead: the oldest unapplied event is at least a minute old.
    const rows = await projectionStatus({ eventStore, checkpoints: stores.projections, history: stores.history, sampleMs: 0, now: () => new Date(Date.now() + 60_000) });
    expect(rows.map((r) => r.projection)).toEqual(['collections', 'items', 'apiKeys', 'plan']);
    let lagEvents = 0;
    for await (const _event of eventStore.readAll({ after: 3 })) lagEvents += 1;
    // No batch was recorded in the history: nothing before the applied position can be resumed.
    expect(rows[0]).toMatchObject({ checkpoint: 'projector', applied: 3, published: 0, head, lagEvents, eventsPerSecond: 0, historyFloor: 3 });
    expect(rows[0]?.lagSeconds).toBeGreaterThanOrEqual(60);
    expect(rows[0]?.lagSeconds).toBeLessThan(3_600);
  });
});
