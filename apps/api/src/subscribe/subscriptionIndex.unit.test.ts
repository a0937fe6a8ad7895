import { describe, expect, it } from 'vitest';
import { SubscriptionIndex } from './subscriptionIndex.js';

const stream = (keyId: string, dataIds: string[], slugs: string[]) => ({ keyId, dataIds, slugs });

describe('SubscriptionIndex', () => {
  it('given streams, then each item and collection finds exactly its followers, and keys are counted', () => {
    const index = new SubscriptionIndex<ReturnType<typeof stream>>();
    const a = stream('k1', ['hero', 'banner'], ['news']);
    const b = stream('k1', ['hero'], []);
    const c = stream('k2', [], ['news', 'shop']);
    for (const s of [a, b, c]) index.add(s);
    expect([...(index.followingItem('hero') ?? [])]).toEqual([a, b]);
    expect([...(index.followingCollection('news') ?? [])]).toEqual([a, c]);
    expect(index.followingItem('nobody')).toBeUndefined();
    expect(index.countForKey('k1')).toBe(2);
    expect(index.countForKey('k2')).toBe(1);
    expect(index.countForKey('k3')).toBe(0);
    expect(index.size).toBe(3);
    expect([...index.all()]).toEqual([a, b, c]);
  });

  it('when a stream is removed, then it reports what no stream follows any more, and forgets it', () => {
    const index = new SubscriptionIndex<ReturnType<typeof stream>>();
    const a = stream('k1', ['hero', 'banner'], ['news', 'shop']);
    const b = stream('k1', ['hero'], ['news']);
    index.add(a);
    index.add(b);
    expect(index.remove(a)).toEqual({ dataIds: ['banner'], slugs: ['shop'] });
    expect(index.followsItem('banner')).toBe(false);
    expect(index.followsItem('hero')).toBe(true);
    expect(index.followsCollection('shop')).toBe(false);
    expect(index.countForKey('k1')).toBe(1);
    expect(index.remove(b)).toEqual({ dataIds: ['hero'], slugs: ['news'] });
    expect(index.size).toBe(0);
    expect(index.countForKey('k1')).toBe(0);
  });

  it('given a stream removed twice, then the second removal changes nothing', () => {
    const index = new SubscriptionIndex<ReturnType<typeof stream>>();
    const a = stream('k1', ['hero'], []);
    const b = stream('k1', ['hero'], []);
    index.add(a);
    index.add(b);
    index.remove(a);
    expect(index.remove(a)).toEqual({ dataIds: [], slugs: [] });
    expect(index.countForKey('k1')).toBe(1);
    expect(index.followsItem('hero')).toBe(true);
  });
});
