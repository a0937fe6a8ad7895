import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase } from './openSqliteDatabase.js';
import { createSqliteEventStore } from './sqliteEventStore.js';
import { testEventStoreContract } from './testing/eventStoreContract.js';
import { collect, probeSubscription } from './testing/subscriptionProbe.js';

const tempLogPath = (): { path: string; remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-sqlite-'));
  return { path: join(dir, 'nested', 'events.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

testEventStoreContract(
  'sqlite',
  async () => {
    const file = tempLogPath();
    // Tiny pages so the contract's reads cross page boundaries.
    const store = createSqliteEventStore(openSqliteDatabase(file.path), { readPageSize: 2, pollIntervalMs: 50 });
    return {
      store,
      async cleanup() {
        await store.close();
        file.remove();
      },
    };
  },
  { contiguousPositions: true, freshLogPerTest: true, atomicAppendAll: true },
);

describe('sqlite event store: what the shared contract cannot say', () => {
  it('a live subscriber sees appends made through another connection to the same file', async () => {
    const file = tempLogPath();
    const reader = createSqliteEventStore(openSqliteDatabase(file.path), { pollIntervalMs: 20 });
    const writer = createSqliteEventStore(openSqliteDatabase(file.path));
    try {
      const probe = probeSubscription(reader, { after: 0 });
      await writer.appendToStream('item-a', [{ type: 'ItemCreated', data: { a: 1 } }], { expectedRevision: 'no_stream' });
      const [received] = await probe.until((events) => events.length === 1);
      expect(received?.data).toEqual({ a: 1 });
    } finally {
      await Promise.all([reader.close(), writer.close()]);
      file.remove();
    }
  });

  it('keeps the log across reopening the file', async () => {
    const file = tempLogPath();
    try {
      const first = createSqliteEventStore(openSqliteDatabase(file.path));
      await first.appendToStream('item-a', [{ type: 'A', data: {} }, { type: 'B', data: {} }], { expectedRevision: 'no_stream' });
      await first.close();
      const reopened = createSqliteEventStore(openSqliteDatabase(file.path));
      const result = await reopened.appendToStream('item-a', [{ type: 'C', data: {} }], { expectedRevision: 1 });
      expect(result).toEqual({ nextRevision: 2, position: 3 });
      expect((await collect(reopened.readAll())).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      await reopened.close();
    } finally {
      file.remove();
    }
  });

  it('rejects a batch that mixes stored and new event ids, or reuses another stream\'s id, writing nothing', async () => {
    const store = createSqliteEventStore(openSqliteDatabase(':memory:'));
    await store.appendToStream('item-a', [{ eventId: 'e1', type: 'A', data: {} }], { expectedRevision: 'no_stream' });
    await expect(
      store.appendToStream('item-a', [{ eventId: 'e1', type: 'A', data: {} }, { eventId: 'e2', type: 'B', data: {} }], { expectedRevision: 'any' }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringContaining('mixes') });
    await expect(store.appendToStream('item-b', [{ eventId: 'e1', type: 'A', data: {} }], { expectedRevision: 'any' })).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('item-a'),
    });
    await expect(store.appendToStream('item-c', [{ eventId: 'x', type: 'A', data: {} }, { eventId: 'x', type: 'A', data: {} }], { expectedRevision: 'any' })).rejects.toMatchObject({ status: 400 });
    expect(await store.headPosition()).toBe(1);
    await store.close();
  });

  it('appendToStreams keeps positions contiguous when an entry in the middle fails', async () => {
    const store = createSqliteEventStore(openSqliteDatabase(':memory:'));
    const outcomes = await store.appendToStreams([
      { streamName: 'item-a', events: [{ type: 'A', data: {} }], expectedRevision: 'no_stream' },
      { streamName: 'item-b', events: [{ type: 'B', data: 1n }], expectedRevision: 'no_stream' },
      { streamName: 'item-c', events: [{ type: 'C', data: {} }], expectedRevision: 3 },
      { streamName: 'item-d', events: [{ type: 'D', data: {} }], expectedRevision: 'no_stream' },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect((await collect(store.readAll())).map((e) => [e.type, e.position])).toEqual([
      ['A', 1],
      ['D', 2],
    ]);
    await store.close();
  });
});
