import { describe, expect, it } from 'vitest';
import type { PageQuery, PageResult } from '@pubstream/read-model';
import { CollectionPageReader } from './collectionPageReader.js';
import { collectionPageJson, STREAM_PAGE_QUERY } from './collectionPage.js';
import { collectionPageFrame } from './sseFrames.js';

const page = (total: number): PageResult => ({ items: [], total, position: 0 });

/** Page reads that the test answers by hand. */
const manualReads = () => {
  const calls: { slug: string; query: PageQuery; resolve(result: PageResult | null): void }[] = [];
  const reads = {
    getCollectionPage: (slug: string, query: PageQuery) => new Promise<PageResult | null>((resolve) => calls.push({ slug, query, resolve })),
  };
  return { reads, calls };
};

describe('CollectionPageReader', () => {
  it('reads page 1 at the stream query and frames it; a missing collection is an empty page', async () => {
    const { reads, calls } = manualReads();
    const reader = new CollectionPageReader(reads);
    const read = reader.read('news', 0);
    expect(calls[0]?.query).toEqual(STREAM_PAGE_QUERY);
    calls[0]?.resolve(null);
    const json = collectionPageJson('news', null);
    expect(await read).toEqual({ slug: 'news', seq: 1, json, frame: collectionPageFrame(json), missing: true });
    expect(JSON.parse(json)).toEqual({ collectionSlug: 'news', data: { data: [], total: 0, page: 1, limit: 20, totalPages: 0 }, action: 'update' });
  });

  it('given a read in flight issued after the caller started buffering, then it is shared; one issued before is not', async () => {
    const { reads, calls } = manualReads();
    const reader = new CollectionPageReader(reads);
    const first = reader.read('news', 0);
    expect(reader.read('news', 0)).toBe(first);
    const later = reader.read('news', 1); // issued after read 1: cannot use it
    expect(later).not.toBe(first);
    expect(calls).toHaveLength(2);
    expect(reader.reads).toBe(2);
    expect(reader.seq).toBe(2);
    calls[0]?.resolve(page(1));
    calls[1]?.resolve(page(2));
    expect((await first).seq).toBe(1);
    expect((await later).seq).toBe(2);
  });

  it('given a read that finished, then the next caller issues a new one', async () => {
    const { reads, calls } = manualReads();
    const reader = new CollectionPageReader(reads);
    const first = reader.read('news', 0);
    calls[0]?.resolve(page(1));
    await first;
    void reader.read('news', 0);
    expect(calls).toHaveLength(2);
  });

  it('given a failed read, then it is not shared any more', async () => {
    const reader = new CollectionPageReader({ getCollectionPage: () => Promise.reject(new Error('down')) });
    await expect(reader.read('news', 0)).rejects.toThrow('down');
    await expect(reader.read('news', 0)).rejects.toThrow('down');
    expect(reader.reads).toBe(2);
  });
});
