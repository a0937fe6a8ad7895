import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageRead } from './collectionPageReader.js';
import { PageRecomputer } from './pageRecomputer.js';

/** A page reader whose reads the test answers by hand. */
const manualPages = () => {
  const reads: { slug: string; notBefore: number; resolve(): void; reject(error: Error): void }[] = [];
  const pages = {
    seq: 0,
    read(slug: string, notBefore: number): Promise<PageRead> {
      const seq = ++pages.seq;
      return new Promise<PageRead>((resolve, reject) => {
        reads.push({ slug, notBefore, resolve: () => resolve({ slug, seq, json: `p${seq}`, frame: `f${seq}`, missing: false }), reject });
      });
    },
  };
  return { pages, reads };
};

const setup = (followed = (slug: string) => slug !== 'nobody') => {
  const { pages, reads } = manualPages();
  const delivered: PageRead[] = [];
  const recomputer = new PageRecomputer({ pages, followed, deliver: (page) => void delivered.push(page), coalesceMs: 50, retryAfterFailureMs: 1_000 });
  return { recomputer, pages, reads, delivered };
};

describe('PageRecomputer coalescing', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given a burst of changes in one window, then the page is read once, at the end of the window, and delivered', async () => {
    const { recomputer, reads, delivered } = setup();
    for (let n = 0; n < 20; n++) recomputer.markDirty('news');
    await vi.advanceTimersByTimeAsync(49);
    expect(reads).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads.map((read) => read.slug)).toEqual(['news']);
    reads[0]?.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered.map((page) => page.seq)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(500);
    expect(reads).toHaveLength(1);
  });

  it('given a change while a read runs, then a second read, issued after that change, follows one window later', async () => {
    const { recomputer, pages, reads, delivered } = setup();
    recomputer.markDirty('news');
    await vi.advanceTimersByTimeAsync(50);
    pages.seq = 7; // other reads (snapshots) were issued meanwhile
    recomputer.markDirty('news');
    await vi.advanceTimersByTimeAsync(200);
    expect(reads).toHaveLength(1); // one read at a time per collection
    reads[0]?.resolve();
    await vi.advanceTimersByTimeAsync(49);
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads[1]?.notBefore).toBe(7);
    reads[1]?.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toHaveLength(2);
  });

});

describe('PageRecomputer failures and forgetting', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given a read that fails, then it is retried after the pause, and the page delivered then', async () => {
    const { recomputer, reads, delivered } = setup();
    recomputer.markDirty('news');
    await vi.advanceTimersByTimeAsync(50);
    reads[0]?.reject(new Error('read model down'));
    await vi.advanceTimersByTimeAsync(999);
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads[1]?.notBefore).toBe(reads[0]?.notBefore);
    reads[1]?.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toHaveLength(1);
  });

  it('given a collection no stream follows, or one forgotten before its window ends, then nothing is read', async () => {
    const { recomputer, reads } = setup();
    recomputer.markDirty('nobody');
    recomputer.markDirty('news');
    recomputer.forget('news');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toHaveLength(0);
  });

  it('given close, then no pending recompute runs', async () => {
    const { recomputer, reads } = setup();
    recomputer.markDirty('news');
    recomputer.markDirty('shop');
    recomputer.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toHaveLength(0);
  });
});
