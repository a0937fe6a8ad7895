import { describe, expect, it } from 'vitest';
import type { ItemRecord } from '@pubstream/read-model';
import type { PageRead } from './collectionPageReader.js';
import { readStreamSnapshot } from './streamSnapshot.js';

const record = (dataId: string, version: number): ItemRecord => ({
  id: `id-${dataId}`,
  dataId,
  collectionId: 'c',
  data: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version,
  position: version,
});
const pageRead = (slug: string, seq: number, missing = false): PageRead => ({ slug, seq, json: slug, frame: slug, missing });

describe('readStreamSnapshot', () => {
  it('maps each subscribed item to its record or null, reads pages after the buffering mark and names missing collections', async () => {
    const notBefores: number[] = [];
    const snapshot = await readStreamSnapshot(
      {
        reads: { getItems: async (ids) => ids.map((id) => (id === 'gone' ? null : record(id, 2))) },
        pages: {
          read: async (slug, notBefore) => {
            notBefores.push(notBefore);
            return pageRead(slug, 10, slug === 'deleted');
          },
        },
        itemFrame: (r) => `frame ${r.dataId}`,
      },
      { dataIds: ['hero', 'gone'], slugs: ['news', 'deleted'] },
      7,
    );
    expect([...snapshot.items.entries()]).toEqual([
      ['hero', record('hero', 2)],
      ['gone', null],
    ]);
    expect(snapshot.pages.map((page) => page.slug)).toEqual(['news', 'deleted']);
    expect(notBefores).toEqual([7, 7]);
    expect(snapshot.missingSlugs).toEqual(['deleted']);
    expect(snapshot.itemFrame(record('hero', 2))).toBe('frame hero');
  });

  it('given no dataIds, then items are not read at all', async () => {
    let itemReads = 0;
    const snapshot = await readStreamSnapshot(
      { reads: { getItems: async () => (itemReads++, []) }, pages: { read: async (slug) => pageRead(slug, 1) }, itemFrame: () => '' },
      { dataIds: [], slugs: ['news'] },
      0,
    );
    expect(itemReads).toBe(0);
    expect(snapshot.items.size).toBe(0);
  });
});
