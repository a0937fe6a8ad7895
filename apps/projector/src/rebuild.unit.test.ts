import { describe, expect, it } from 'vitest';
import { PROJECTIONS } from './projections/index.js';
import { selectProjections } from './rebuild.js';

describe('selectProjections', () => {
  const names = PROJECTIONS.map((p) => p.name);

  it('given no names, then the whole registry', () => {
    expect(selectProjections(PROJECTIONS, undefined)).toBe(PROJECTIONS);
  });

  it('given names, then those projections in registry order', () => {
    const picked = [...names].reverse().slice(0, 2);
    expect(selectProjections(PROJECTIONS, picked).map((p) => p.name)).toEqual(names.filter((name) => picked.includes(name)));
  });

  it('given an unknown name, then an error naming it and the known ones', () => {
    expect(() => selectProjections(PROJECTIONS, [names[0]!, 'nope'])).toThrow(`Unknown projection(s): nope; known: ${names.join(', ')}`);
  });
});
