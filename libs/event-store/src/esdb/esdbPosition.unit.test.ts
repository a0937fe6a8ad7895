import { START } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { samePosition, toEsdbReadPosition, toPortPosition } from './esdbPosition.js';

describe('EventStoreDB position conversion', () => {
  it('uses the commit position as the port position', () => {
    expect(toPortPosition({ commit: 1234n, prepare: 1234n })).toBe(1234);
    expect(toPortPosition({ commit: 9_007_199_254_740_991n, prepare: 1n })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a commit position a JavaScript number cannot hold exactly', () => {
    expect(() => toPortPosition({ commit: 9_007_199_254_740_992n, prepare: 0n })).toThrow(/MAX_SAFE_INTEGER/);
  });

  it('resumes from the start for 0 and from {commit, prepare} both equal to the position otherwise', () => {
    expect(toEsdbReadPosition(0)).toBe(START);
    expect(toEsdbReadPosition(4096)).toEqual({ commit: 4096n, prepare: 4096n });
  });

  it('round-trips positions of single-event appends', () => {
    for (const n of [1, 77, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      const resumed = toEsdbReadPosition(n);
      expect(resumed === START ? 0 : toPortPosition(resumed as { commit: bigint; prepare: bigint })).toBe(n);
    }
  });

  it('rejects positions that are not non-negative safe integers', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => toEsdbReadPosition(bad)).toThrow(RangeError);
  });

  it('compares positions by both parts', () => {
    expect(samePosition({ commit: 1n, prepare: 2n }, { commit: 1n, prepare: 2n })).toBe(true);
    expect(samePosition({ commit: 1n, prepare: 2n }, { commit: 1n, prepare: 3n })).toBe(false);
    expect(samePosition(undefined, { commit: 1n, prepare: 1n })).toBe(false);
  });
});
