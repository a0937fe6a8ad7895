import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '@pubstream/read-model';
import type { PageRead } from './collectionPageReader.js';
import type { HistoryChange, PositionReads } from './hubReads.js';
import { readStreamStart, type StartSources } from './streamStart.js';

const record = (dataId: string, version: number, position: number): ItemRecord =>
  ({ id: `id-${dataId}`, dataId, collectionId: 'c', data: { v: version }, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', version, position }) as ItemRecord;
const change = (dataId: string, version: number, position: number, action: 'update' | 'delete' = 'update'): HistoryChange => ({
  dataId,
  version,
  position,
  action,
  collectionId: 'c',
  data: action === 'update' ? { v: version } : {},
});
const pageRead = (slug: string, missing = false): PageRead => ({ slug, seq: 1, json: slug, frame: slug, missing });

/** Sources over a fixed world: records, a history, an applied position and a floor; calls are logged. */
const sourcesOf = (world: { records: ItemRecord[]; history: HistoryChange[]; applied: number; floor: number }) => {
  const calls: string[] = [];
  const positions: PositionReads = {
    appliedPosition: async () => world.applied,
    historyFloor: async () => world.floor,
    itemChanges: async (dataIds, after, until) => {
      calls.push(`itemChanges ${dataIds.join(',')} (${after}, ${until}]`);
      if (after < world.floor) return 'expired';
      return world.history.filter((c) => dataIds.includes(c.dataId) && c.position > after && c.position <= until);
    },
  };
  const sources: StartSources = {
    reads: { getItems: async (ids) => ids.map((id) => world.records.find((r) => r.dataId === id) ?? null) },
    positions,
    pages: { read: async (slug) => pageRead(slug, slug === 'gone') },
  };
  return { sources, calls };
};

describe('readStreamStart (docs/subscriptions.md, Positions)', () => {
  it('a fresh start is a snapshot at the applied position when every record is older; no history is read', async () => {
    const { sources, calls } = sourcesOf({ records: [record('a', 2, 5)], history: [], applied: 9, floor: 0 });
    const start = await readStreamStart(sources, { dataIds: ['a', 'missing'], slugs: ['news', 'gone'] }, null, 0);
    expect(start).toMatchObject({ kind: 'snapshot', reset: false, position: 9, missingSlugs: ['gone'] });
    if (start.kind !== 'snapshot') throw new Error('snapshot expected');
    expect([...start.items]).toEqual([
      ['a', { dataId: 'a', data: { v: 2 }, version: 2 }],
      ['missing', null],
    ]);
    expect(calls).toEqual([]);
  });

  it('a record newer than the applied position moves the snapshot to it, and the other items are taken from the history at that position', async () => {
    // Applied 10; then b changed at 11 (v1 → v2) and a at 12 — the read saw a at 12 but b still at its older record.
    const history = [change('b', 2, 11), change('a', 3, 12)];
    const { sources, calls } = sourcesOf({ records: [record('a', 3, 12), record('b', 1, 4)], history, applied: 10, floor: 0 });
    const start = await readStreamStart(sources, { dataIds: ['a', 'b'], slugs: [] }, null, 0);
    if (start.kind !== 'snapshot') throw new Error('snapshot expected');
    expect(start.position).toBe(12);
    expect(start.items.get('b')).toEqual({ dataId: 'b', data: { v: 2 }, version: 2 });
    expect(calls).toEqual(['itemChanges a,b (10, 12]']);
  });

  it('a resume reads the changes after `from` up to the applied position, and a page for every collection', async () => {
    const history = [change('a', 1, 3), change('a', 2, 6), change('b', 1, 7, 'delete')];
    const { sources } = sourcesOf({ records: [], history, applied: 8, floor: 2 });
    const start = await readStreamStart(sources, { dataIds: ['a', 'b'], slugs: ['news'] }, 3, 0);
    expect(start).toMatchObject({ kind: 'resume', position: 8, changes: [history[1], history[2]] });
    expect(start.pages.map((p) => p.slug)).toEqual(['news']);
  });

  it('a resume from the applied position reads no history; one from ahead of it keeps its position (never goes back)', async () => {
    const { sources, calls } = sourcesOf({ records: [], history: [], applied: 8, floor: 0 });
    expect(await readStreamStart(sources, { dataIds: ['a'], slugs: [] }, 8, 0)).toMatchObject({ kind: 'resume', position: 8, changes: [] });
    expect(await readStreamStart(sources, { dataIds: ['a'], slugs: [] }, 12, 0)).toMatchObject({ kind: 'resume', position: 12, changes: [] });
    expect(calls).toEqual([]);
  });

  it('a resume from below the history floor becomes a snapshot announced by reset', async () => {
    const { sources } = sourcesOf({ records: [record('a', 4, 20)], history: [], applied: 30, floor: 10 });
    const start = await readStreamStart(sources, { dataIds: ['a'], slugs: [] }, 9, 0);
    expect(start).toMatchObject({ kind: 'snapshot', reset: true, position: 30 });
  });
});
