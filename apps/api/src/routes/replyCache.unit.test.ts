import { describe, expect, it } from 'vitest';
import { createReplyCache } from './replyCache.js';

describe('createReplyCache', () => {
  it('serves the remembered reply while the stamp holds and rebuilds when it changes', () => {
    const cache = createReplyCache(10);
    let builds = 0;
    const build = (body: string) => () => ({ body: `${body}#${++builds}`, etag: null });
    expect(cache.get('item-1', 'a@1', build('one')).body).toBe('one#1');
    expect(cache.get('item-1', 'a@1', build('ignored')).body).toBe('one#1');
    expect(cache.get('item-1', 'a@2', build('two')).body).toBe('two#2');
  });

  it('forgets the oldest name when full', () => {
    const cache = createReplyCache(2);
    for (const name of ['a', 'b', 'c']) cache.get(name, 1, () => ({ body: name, etag: null }));
    expect(cache.get('a', 1, () => ({ body: 'a again', etag: null })).body).toBe('a again');
    expect(cache.get('c', 1, () => ({ body: 'c again', etag: null })).body).toBe('c');
  });
});
