import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSortedIndex } from './sortedIndex.js';
import { compareSortEntries, type SortKey } from './sortKeys.js';

/** The page the port promises, computed by sorting everything. */
const expectedPage = (keys: Map<string, SortKey>, order: 'asc' | 'desc', offset: number, limit: number): string[] =>
  [...keys]
    .map(([dataId, key]) => ({ dataId, key }))
    .sort((a, b) => compareSortEntries(a, b, order))
    .slice(offset, offset + limit)
    .map((e) => e.dataId);

type Step = { kind: 'set'; id: string; key: SortKey } | { kind: 'delete'; id: string } | { kind: 'page'; order: 'asc' | 'desc'; offset: number; limit: number };

const id = fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `d${i}`));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), id, key: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(null)) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('page' as const), order: fc.constantFrom('asc' as const, 'desc' as const), offset: fc.integer({ min: 0, max: 14 }), limit: fc.integer({ min: 0, max: 14 }) }) },
);

describe('sorted index', () => {
  it('pages like a full sort, whatever the mix of writes and reads (incremental, dropped and rebuilt lists)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 600 }), (steps) => {
        const index = createSortedIndex();
        const keys = new Map<string, SortKey>();
        for (const s of steps) {
          if (s.kind === 'set') {
            index.set(s.id, s.key);
            keys.set(s.id, s.key);
          } else if (s.kind === 'delete') {
            index.delete(s.id);
            keys.delete(s.id);
          } else {
            expect(index.page(s.order, s.offset, s.limit)).toEqual(expectedPage(keys, s.order, s.offset, s.limit));
          }
        }
        expect(index.size).toBe(keys.size);
        expect(index.page('asc', 0, 100)).toEqual(expectedPage(keys, 'asc', 0, 100));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps pages right across a long run of writes without a read (the lists are dropped, then sorted again)', () => {
    const index = createSortedIndex();
    const keys = new Map<string, SortKey>();
    const write = (i: number) => {
      const key = i % 7 === 0 ? null : (i * 37) % 101;
      index.set(`k${i % 500}`, key);
      keys.set(`k${i % 500}`, key);
    };
    for (let i = 0; i < 300; i++) write(i);
    expect(index.page('desc', 0, 20)).toEqual(expectedPage(keys, 'desc', 0, 20));
    for (let i = 300; i < 1_000; i++) write(i);
    for (let i = 0; i < 50; i++) {
      index.delete(`k${i * 3}`);
      keys.delete(`k${i * 3}`);
    }
    expect(index.page('asc', 0, 600)).toEqual(expectedPage(keys, 'asc', 0, 600));
    expect(index.page('desc', 400, 50)).toEqual(expectedPage(keys, 'desc', 400, 50));
  });
});
