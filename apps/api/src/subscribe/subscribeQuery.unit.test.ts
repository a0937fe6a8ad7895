import { describe, expect, it } from 'vitest';
import { parseSubscribeQuery } from './subscribeQuery.js';

describe('parseSubscribeQuery', () => {
  it('splits comma lists, trims, drops blanks and duplicates, keeps order; repeated parameters join', () => {
    expect(parseSubscribeQuery({ collections: ' b, a ,,b', dataIds: ['x,y', 'x'] })).toEqual({ collections: ['b', 'a'], dataIds: ['x', 'y'] });
  });

  it('refuses an empty subscription and the limits with 400 messages that say what is wrong', () => {
    expect(() => parseSubscribeQuery({})).toThrow(/Nothing to subscribe to/);
    expect(() => parseSubscribeQuery({ collections: ' , ' })).toThrow(/Nothing to subscribe to/);
    const slugs = Array.from({ length: 26 }, (_, i) => `s${i}`);
    expect(() => parseSubscribeQuery({ collections: slugs.join(',') })).toThrow('Too many collections: at most 25 per subscription (got 26)');
    expect(parseSubscribeQuery({ collections: slugs.slice(0, 25).join(',') }).collections).toHaveLength(25);
    const ids = Array.from({ length: 101 }, (_, i) => `d${i}`);
    expect(() => parseSubscribeQuery({ dataIds: ids.join(',') })).toThrow('Too many dataIds: at most 100 per subscription (got 101)');
    expect(() => parseSubscribeQuery({ dataIds: 'ok,.dot' })).toThrow('Invalid dataId format: ".dot"');
    expect(() => parseSubscribeQuery({ collections: 'UPPER' })).toThrow('Invalid collection slug: "UPPER"');
    expect(() => parseSubscribeQuery({ collections: 'X'.repeat(5_000) })).toThrow(`Invalid collection slug: "${'X'.repeat(128)}…"`);
    const thrown = (() => {
      try {
        parseSubscribeQuery({});
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(thrown).toMatchObject({ status: 400, error: 'Bad Request' });
  });
});
