import { describe, expect, it } from 'vitest';
import { isEmptyWatchedSet, normalizeWatchedSet, subscribeQuery, watchedSetKey } from './watchedSet.js';

describe('watched set', () => {
  it('given the same members in another order, then the normalized sets have the same key', () => {
    const a = normalizeWatchedSet({ collections: ['news', 'blog'], dataIds: ['b', 'a'] });
    const b = normalizeWatchedSet({ collections: ['blog', 'news'], dataIds: ['a', 'b'] });
    expect(a).toEqual({ collections: ['blog', 'news'], dataIds: ['a', 'b'] });
    expect(watchedSetKey(a)).toBe(watchedSetKey(b));
  });

  it('given an id moved from dataIds to collections, then the key differs', () => {
    expect(watchedSetKey({ collections: ['x'], dataIds: [] })).not.toBe(watchedSetKey({ collections: [], dataIds: ['x'] }));
  });

  it('normalizing does not change the caller’s arrays', () => {
    const dataIds = ['b', 'a'];
    normalizeWatchedSet({ collections: [], dataIds });
    expect(dataIds).toEqual(['b', 'a']);
  });

  it('is empty only when neither list has members', () => {
    expect(isEmptyWatchedSet({ collections: [], dataIds: [] })).toBe(true);
    expect(isEmptyWatchedSet({ collections: ['news'], dataIds: [] })).toBe(false);
    expect(isEmptyWatchedSet({ collections: [], dataIds: ['a'] })).toBe(false);
  });

  it('builds the /subscribe query with comma-joined lists and leaves empty lists out', () => {
    expect(subscribeQuery('pk_test_x', { collections: ['blog', 'news'], dataIds: ['a', 'b'] })).toEqual({
      apiKey: 'pk_test_x',
      collections: 'blog,news',
      dataIds: 'a,b',
    });
    expect(subscribeQuery('pk_test_x', { collections: [], dataIds: ['a'] })).toEqual({ apiKey: 'pk_test_x', dataIds: 'a' });
  });
});
