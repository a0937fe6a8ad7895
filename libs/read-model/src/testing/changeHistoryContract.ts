import { beforeEach, describe, expect, it } from 'vitest';
import { EXPIRED, type ChangeEntry } from '../changeHistory.js';
import type { ReadModelOp } from '../projectionStore.js';
import { APPLIED_CHECKPOINT } from '../readModel.js';
import type { Stores } from '../stores.js';
import { collectionRecord, del, itemRecord, pageOf, put, putCollection } from './contractFixtures.js';

export type ChangeHistorySubject = Pick<Stores, 'projections' | 'readModel' | 'history'>;

const T0 = Date.UTC(2026, 0, 1);
const WINDOW = 10_000;

/** An item put at a position (version = position: it only has to grow per item). */
const putAt = (dataId: string, position: number, data: Record<string, unknown> = { n: position }, slug = 'c'): ReadModelOp =>
  put(itemRecord(dataId, slug, position, data, { position }));

const entry = (dataId: string, position: number, action: 'update' | 'delete' = 'update', data: Record<string, unknown> = { n: position }, slug = 'c'): ChangeEntry => ({
  position,
  dataId,
  collectionId: slug,
  action,
  version: position,
  data: action === 'delete' ? {} : data,
});

/**
 * The positions and the change history (docs/read-models.md, "Change history"): what the public
 * reads, the stream's resumes and the changes feed rely on, for every adapter. `factory` gets the
 * clock the history's floor is read with.
 */
export const testChangeHistoryContract = (name: string, factory: (now: () => Date) => Promise<ChangeHistorySubject>): void => {
  describe(`change history: ${name}`, () => {
    let clock = T0;
    let s: ChangeHistorySubject;
    beforeEach(async () => {
      clock = T0;
      s = await factory(() => new Date(clock));
    });
    /** Applies a batch as the live projector does: recorded, its checkpoint at `position`, at `atMs` after T0. */
    const record = (ops: ReadModelOp[], position: number, atMs = 0) =>
      s.projections.apply(ops, { projection: APPLIED_CHECKPOINT, position }, { history: { at: new Date(T0 + atMs), windowMs: WINDOW } });

    it('keeps each record’s position, pages carry the collection’s lastChange, appliedPosition is the applied checkpoint', async () => {
      expect(await s.readModel.appliedPosition()).toBe(0);
      await record([putCollection(collectionRecord('c', 1, [], 1)), putCollection(collectionRecord('other', 1, [], 2)), putAt('a', 3), putAt('b', 4)], 4);
      expect((await s.readModel.getItem('a'))?.position).toBe(3);
      expect((await s.readModel.getItems(['b', 'a'])).map((i) => i?.position)).toEqual([4, 3]);
      expect((await pageOf(s.readModel, 'c', 'dataId', 'asc')).position).toBe(4);
      expect(await s.readModel.appliedPosition()).toBe(4);
      await record([del('b', 'c', 6, 6), putAt('x', 7, {}, 'other')], 7);
      expect((await pageOf(s.readModel, 'c', 'dataId', 'asc')).position).toBe(6);
      await record([putCollection(collectionRecord('c', 2, [], 9))], 9);
      expect((await pageOf(s.readModel, 'c', 'dataId', 'asc')).position).toBe(9);
      expect((await s.readModel.getCollection('c'))?.position).toBe(9);
      expect(await s.readModel.appliedPosition()).toBe(9);
    });

    it('collectionChanges: every item change after `after`, in position order, at most `limit`, with hasMore and lastChange', async () => {
      await record([putCollection(collectionRecord('c', 1, [], 1)), putAt('a', 2), putAt('b', 3), putAt('a', 4, { n: 'four' }), putAt('z', 5, {}, 'other')], 5);
      await record([del('b', 'c', 6, 6), putAt('c1', 7), putCollection(collectionRecord('c', 2, [], 8))], 8);
      const all = [entry('a', 2), entry('b', 3), entry('a', 4, 'update', { n: 'four' }), entry('b', 6, 'delete'), entry('c1', 7)];
      expect(await s.history.collectionChanges('c', 0, 100)).toEqual({ changes: all, hasMore: false, lastChange: 8 });
      expect(await s.history.collectionChanges('c', 0, 2)).toEqual({ changes: all.slice(0, 2), hasMore: true, lastChange: 8 });
      expect(await s.history.collectionChanges('c', 3, 2)).toEqual({ changes: all.slice(2, 4), hasMore: true, lastChange: 8 });
      expect(await s.history.collectionChanges('c', 6, 2)).toEqual({ changes: all.slice(4), hasMore: false, lastChange: 8 });
      expect(await s.history.collectionChanges('c', 8, 2)).toEqual({ changes: [], hasMore: false, lastChange: 8 });
      expect(await s.history.collectionChanges('none', 0, 10)).toEqual({ changes: [], hasMore: false, lastChange: 0 });
    });

    it('itemChanges: the changes of the asked items with after < position ≤ until, in position order', async () => {
      await record([putCollection(collectionRecord('c', 1, [], 1)), putAt('a', 2), putAt('b', 3), putAt('a', 4), putAt('z', 5, {}, 'other')], 5);
      await record([del('a', 'c', 6, 6), putAt('z', 7, {}, 'other'), putAt('b', 8)], 8);
      expect(await s.history.itemChanges(['z', 'a', 'nope'], 0, 8)).toEqual([entry('a', 2), entry('a', 4), entry('z', 5, 'update', {}, 'other'), entry('a', 6, 'delete'), entry('z', 7, 'update', {}, 'other')]);
      expect(await s.history.itemChanges(['a', 'b', 'a'], 2, 6)).toEqual([entry('b', 3), entry('a', 4), entry('a', 6, 'delete')]);
      expect(await s.history.itemChanges(['b'], 8, 100)).toEqual([]);
    });

    it('records only the changes that changed something: a stale op or a replayed batch adds nothing', async () => {
      await record([putCollection(collectionRecord('c', 1, [], 1)), putAt('a', 5)], 5);
      expect(await record([putAt('a', 5), put(itemRecord('a', 'c', 3, {}, { position: 6 }))], 6)).toEqual([false, false]);
      expect(await s.history.itemChanges(['a'], 0, 10)).toEqual([entry('a', 5)]);
      expect((await s.history.collectionChanges('c', 0, 10)).valueOf()).toEqual({ changes: [entry('a', 5)], hasMore: false, lastChange: 5 });
    });

    it('keeps nothing without recording; the floor is the applied position where recording began', async () => {
      await s.projections.apply([putCollection(collectionRecord('c', 1, [], 1)), putAt('a', 2)], { projection: APPLIED_CHECKPOINT, position: 3 });
      expect(await s.history.historyFloor()).toBe(3);
      await record([putAt('a', 4), putAt('b', 5)], 5);
      expect(await s.history.historyFloor()).toBe(3);
      expect(await s.history.collectionChanges('c', 2, 10)).toBe(EXPIRED);
      expect(await s.history.itemChanges(['a'], 0, 5)).toBe(EXPIRED);
      expect(await s.history.collectionChanges('c', 3, 10)).toEqual({ changes: [entry('a', 4), entry('b', 5)], hasMore: false, lastChange: 5 });
      expect(await s.history.itemChanges(['a'], 3, 5)).toEqual([entry('a', 4)]);
    });

    it('a page read while batches land is exactly the collection’s state at its position (X-Position atomicity)', async () => {
      await record([putCollection(collectionRecord('c', 1, [], 1))], 1);
      const log: { dataId: string; position: number; deleted: boolean }[] = [];
      let position = 1;
      let writing = true;
      const writer = (async () => {
        for (let batch = 0; batch < 120; batch++) {
          const ops = Array.from({ length: 1 + (batch % 3) }, (_, i) => {
            const dataId = `k${(batch * 7 + i * 3) % 25}`;
            position += 1;
            const deleted = (batch + i) % 5 === 4;
            log.push({ dataId, position, deleted });
            return deleted ? del(dataId, 'c', position, position) : putAt(dataId, position);
          });
          await record(ops, position);
        }
        writing = false;
      })();
      const pages: { position: number; items: { dataId: string; position: number }[]; total: number }[] = [];
      while (writing) {
        const page = await pageOf(s.readModel, 'c', 'dataId', 'asc', 0, 100);
        pages.push({ position: page.position, total: page.total, items: page.items.map((i) => ({ dataId: i.dataId, position: i.position })) });
      }
      await writer;
      expect(pages.length).toBeGreaterThan(3);
      for (const page of pages) {
        // The state at the page's position, from the write log.
        const state = new Map<string, number>();
        for (const write of log) {
          if (write.position > page.position) break;
          if (write.deleted) state.delete(write.dataId);
          else state.set(write.dataId, write.position);
        }
        const expected = [...state].map(([dataId, at]) => ({ dataId, position: at })).sort((a, b) => (a.dataId < b.dataId ? -1 : 1));
        expect({ at: page.position, items: page.items, total: page.total }).toEqual({ at: page.position, items: expected, total: expected.length });
      }
    });

    it('keeps RESUME_WINDOW: the floor is the applied position one window ago, older requests are expired', async () => {
      await record([putCollection(collectionRecord('c', 1, [], 1)), putAt('a', 2)], 2, 0);
      await record([putAt('a', 3), putAt('b', 4)], 4, 5_000);
      await record([putAt('a', 5), putAt('b', 6)], 6, 20_000);
      clock = T0 + 20_000;
      expect(await s.history.historyFloor()).toBe(4);
      expect(await s.history.collectionChanges('c', 3, 10)).toBe(EXPIRED);
      expect(await s.history.itemChanges(['a'], 3, 10)).toBe(EXPIRED);
      expect(await s.history.collectionChanges('c', 4, 10)).toEqual({ changes: [entry('a', 5), entry('b', 6)], hasMore: false, lastChange: 6 });
      await record([putAt('a', 7)], 7, 21_000);
      // Trimmed indexes still answer everything after the floor.
      expect(await s.history.itemChanges(['a', 'b'], 4, 7)).toEqual([entry('a', 5), entry('b', 6), entry('a', 7)]);
      clock = T0 + 31_500;
      expect(await s.history.historyFloor()).toBe(7);
      expect(await s.history.itemChanges(['a'], 6, 7)).toBe(EXPIRED);
      expect(await s.history.collectionChanges('c', 7, 10)).toEqual({ changes: [], hasMore: false, lastChange: 7 });
    });
  });
};
