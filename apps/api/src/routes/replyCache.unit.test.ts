import { describe, expect, it } from 'vitest';
import { createReplyCache } from './replyCache.js';

const reply = (body: string) => () => ({ body, etag: null, lastModified: null });

describe('createReplyCache', () => {
  it('serves the remembered reply while the stamp holds and rebuilds when it changes', () => {
    const cache = createReplyCache({ maxChars: 1_000 });
    let builds = 0;
    const build = (body: string) => () => ({ body: `${body}#${++builds}`, etag: null, lastModified: null });
    expect(cache.get('item-1', 'a@1', build('one')).body).toBe('one#1');
    expect(cache.get('item-1', 'a@1', build('ignored')).body).toBe('one#1');
    expect(cache.get('item-1', 'a@2', build('two')).body).toBe('two#2');
    expect(cache.get('item-1', 'a@2', build('ignored')).body).toBe('two#2');
  });

  it('forgets the oldest bodies when their total length exceeds the budget', () => {
    const cache = createReplyCache({ maxChars: 100 });
    const names = [...'abcdefghijk'];
    for (const name of names) cache.get(name, '1', reply(name.repeat(10)));
    // Eleven bodies of 10 characters do not fit in 100: the first went, the last stayed.
    expect(cache.get('k', '1', reply('k again')).body).toBe('k'.repeat(10));
    expect(cache.get('a', '1', reply('a again')).body).toBe('a again');
  });

  it('does not keep a body larger than a tenth of the budget', () => {
    const cache = createReplyCache({ maxChars: 100 });
    cache.get('big', '1', reply('x'.repeat(11)));
    expect(cache.get('big', '1', reply('rebuilt')).body).toBe('rebuilt');
  });
});
