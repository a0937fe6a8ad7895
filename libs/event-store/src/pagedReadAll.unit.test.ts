import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from './eventStore.js';
import { readAllInPages, type ReadPage } from './pagedReadAll.js';

const event = (position: number): RecordedEvent => ({
  eventId: `e${position}`,
  streamName: 'item-a',
  type: 'T',
  data: null,
  metadata: {},
  revision: position - 1,
  position,
  recordedAt: new Date(0),
});

/** A log of positions 1..n that records the pages asked for. */
function log(n: number) {
  const pages: [number, number, number | undefined][] = [];
  const readPage: ReadPage = (after, limit, until) => {
    pages.push([after, limit, until]);
    const last = Math.min(n, until ?? n);
    const events: RecordedEvent[] = [];
    for (let p = after + 1; p <= last && events.length < limit; p++) events.push(event(p));
    return events;
  };
  return { readPage, pages };
}

const positions = (events: Iterable<RecordedEvent>) => [...events].map((e) => e.position);

describe('readAllInPages', () => {
  it('given a log longer than a page, then it reads page after page and stops at a short one', () => {
    const { readPage, pages } = log(7);
    expect(positions(readAllInPages(readPage, 3))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages).toEqual([
      [0, 3, undefined],
      [3, 3, undefined],
      [6, 3, undefined],
    ]);
  });

  it('given a log of whole pages, then one more read finds the end', () => {
    const { readPage, pages } = log(6);
    expect(positions(readAllInPages(readPage, 3))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages).toHaveLength(3);
  });

  it('given after, until and maxCount, then only that range, and never more than asked', () => {
    const { readPage, pages } = log(100);
    expect(positions(readAllInPages(readPage, 3, { after: 10, until: 15 }))).toEqual([11, 12, 13, 14, 15]);
    expect(positions(readAllInPages(readPage, 3, { after: 10, maxCount: 4 }))).toEqual([11, 12, 13, 14]);
    expect(pages.at(-1)).toEqual([13, 1, undefined]);
    expect(positions(readAllInPages(readPage, 3, { maxCount: 0 }))).toEqual([]);
  });
});
