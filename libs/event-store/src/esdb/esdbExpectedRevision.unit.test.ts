import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { describeEsdbRevision, toEsdbExpectedRevision } from './esdbExpectedRevision.js';

describe('expected revision mapping', () => {
  it('maps the named expectations to the client constants', () => {
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
  });

  it('maps a revision number to a BigInt, and -1 to no stream', () => {
    expect(toEsdbExpectedRevision(0)).toBe(0n);
    expect(toEsdbExpectedRevision(41)).toBe(41n);
    expect(toEsdbExpectedRevision(-1)).toBe(NO_STREAM);
  });

  it('rejects revisions that are not integers from -1', () => {
    for (const bad of [-2, 0.5, Number.NaN]) expect(() => toEsdbExpectedRevision(bad)).toThrow(RangeError);
  });

  it('describes revisions the way the port conflict error does', () => {
    expect([describeEsdbRevision(NO_STREAM), describeEsdbRevision(3n), describeEsdbRevision(ANY)]).toEqual(['no_stream', '3', 'any']);
  });
});
