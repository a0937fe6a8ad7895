import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '@pubstream/read-model';
import { createKeyCache } from './keyCache.js';

const key = (hash: string, version = 0): KeyRecord => ({
  keyId: hash,
  keyHash: hash,
  name: 'k',
  type: 'live',
  last4: 'abcd',
  allowedDomains: [],
  rateLimit: 10,
  createdAt: '2026-01-01T00:00:00.000Z',
  version,
});

const setup = (ttlMs = 1000) => {
  let now = 0;
  const store = new Map<string, KeyRecord>([['h1', key('h1')]]);
  let loads = 0;
  const cache = createKeyCache({
    ttlMs,
    nowMs: () => now,
    load: async (hash) => {
      loads++;
      return store.get(hash) ?? null;
    },
  });
  return { cache, store, loads: () => loads, advance: (ms: number) => (now += ms) };
};

describe('createKeyCache', () => {
  it('serves repeated lookups from memory, including unknown keys', async () => {
    const { cache, loads } = setup();
    await cache.get('h1');
    await cache.get('h1');
    await cache.get('nope');
    await cache.get('nope');
    expect(loads()).toBe(2);
  });
  it('an invalidated key is read again: a deletion is seen on the next lookup', async () => {
    const { cache, store } = setup();
    expect(await cache.get('h1')).not.toBeNull();
    store.delete('h1');
    cache.invalidate('h1');
    expect(await cache.get('h1')).toBeNull();
  });
  it('the TTL bounds staleness when a change message is missed', async () => {
    const { cache, store, advance } = setup(1000);
    await cache.get('h1');
    store.delete('h1');
    advance(999);
    expect(await cache.get('h1')).not.toBeNull();
    advance(2);
    expect(await cache.get('h1')).toBeNull();
  });
  it('clear drops everything (after a change-stream gap)', async () => {
    const { cache, store } = setup();
    await cache.get('h1');
    store.set('h1', key('h1', 5));
    cache.clear();
    expect((await cache.get('h1'))?.version).toBe(5);
  });
  it('ttl 0 disables caching', async () => {
    const { cache, loads } = setup(0);
    await cache.get('h1');
    await cache.get('h1');
    expect(loads()).toBe(2);
  });
  it('failures are not cached', async () => {
    let fail = true;
    const cache = createKeyCache({ ttlMs: 1000, load: async (hash) => (fail ? Promise.reject(new Error('down')) : key(hash)) });
    await expect(cache.get('h1')).rejects.toThrow('down');
    fail = false;
    await expect(cache.get('h1')).resolves.toMatchObject({ keyHash: 'h1' });
  });
});
