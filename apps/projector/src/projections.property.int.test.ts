import { itemDecider, type ItemState } from '@pubstream/domain';
import { createSqliteEventStore, openSqliteDatabase, type RecordedEvent } from '@pubstream/event-store';
import { createMemoryStores } from '@pubstream/read-model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEvents } from './decodeEvents.js';
import { projectBatch } from './projectBatch.js';
import { PROJECTIONS } from './projections/index.js';

type Write = { op: 'put'; dataId: string; data: { n: number } } | { op: 'delete'; dataId: string };

const dataIds = ['a', 'b', 'c', 'd'];
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), dataId: fc.constantFrom(...dataIds), data: fc.record({ n: fc.integer({ min: 0, max: 3 }) }) }),
  fc.record({ op: fc.constant('delete' as const), dataId: fc.constantFrom(...dataIds) }),
);

describe('item projection (property)', () => {
  it('for any admin writes and any batch split, applied twice, the read model equals a naive model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(writeArb, { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), async (writes, firstSplit, secondSplit) => {
        const eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
        const naive = new Map<string, { n: number }>();
        const states = new Map<string, ItemState>();
        let created = 0;
        for (const write of writes) {
          const state = states.get(write.dataId) ?? itemDecider.initialState();
          const command =
            write.op === 'put'
              ? { type: 'PutItem' as const, id: `00000000-0000-4000-8000-${String(++created).padStart(12, '0')}`, dataId: write.dataId, collection: 'c', data: write.data }
              : { type: 'DeleteItem' as const, dataId: write.dataId, collection: 'c' };
          let events;
          try {
            events = itemDecider.decide(command, state);
          } catch {
            continue; // deleting a missing item: refused by the decider, nothing appended
          }
          states.set(write.dataId, events.reduce(itemDecider.evolve, state));
          if (write.op === 'put') naive.set(write.dataId, write.data);
          else naive.delete(write.dataId);
          if (events.length > 0) await eventStore.appendToStream(`item-${write.dataId}`, events.map((e) => ({ type: e.type, data: e.data, metadata: { occurredAt: '2026-01-01T00:00:00.000Z' } })), { expectedRevision: 'any' });
        }
        const log: RecordedEvent[] = [];
        for await (const event of eventStore.readAll()) log.push(event);

        const stores = createMemoryStores();
        for (const split of [firstSplit, secondSplit]) {
          for (let i = 0; i < log.length; i += split) {
            const batch = log.slice(i, i + split);
            const ops = await projectBatch(PROJECTIONS, stores, decodeEvents(batch));
            await stores.projections.apply(ops.map((o) => o.op), { projection: 'projector', position: batch.at(-1)?.position ?? 0 });
          }
          const items = await stores.readModel.getItems(dataIds);
          expect(Object.fromEntries(dataIds.flatMap((id, i) => (items[i] ? [[id, items[i]?.data]] : [])))).toEqual(Object.fromEntries(naive));
          expect(await stores.readModel.countItems('c')).toBe(naive.size);
        }
        await eventStore.close();
      }),
      { numRuns: 40 },
    );
  });
});
