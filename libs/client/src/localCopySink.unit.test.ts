import { describe, expect, it } from 'vitest';
import { createLocalCopy, type WatchedItem } from './localCopy.js';
import { localCopySink } from './localCopySink.js';
import type { CollectionPage } from './types.js';
import { createWatcherRegistry } from './watcherRegistry.js';

function setup() {
  const local = createLocalCopy();
  const options = { limit: 10, what: 'keys', current: () => undefined, forget: () => {}, onKeysChanged: () => {} };
  const items = createWatcherRegistry<WatchedItem>(options);
  const collections = createWatcherRegistry<CollectionPage>(options);
  return { local, items, collections, sink: localCopySink(local, items, collections) };
}

const page = (total: number): CollectionPage => ({ data: [], total, page: 1, limit: 20, totalPages: 1 });

describe('localCopySink', () => {
  it('given a watched item, then a change is stored and heard once; a repeat is not heard; a delete is null', () => {
    const { local, items, sink } = setup();
    const heard: WatchedItem[] = [];
    items.add('a', (item) => heard.push(item));
    sink.onItem('a', { n: 1 });
    sink.onItem('a', { n: 1 });
    sink.onItem('a', null);
    expect(heard).toEqual([{ dataId: 'a', data: { n: 1 } }, null]);
    expect(local.item('a')).toBeNull();
  });

  it('given an item or a collection nobody watches, then nothing is stored', () => {
    const { local, sink } = setup();
    sink.onItem('a', { n: 1 });
    sink.onCollection('news', page(1));
    expect(local.item('a')).toBeUndefined();
    expect(local.collection('news')).toBeUndefined();
  });

  it('given a watched collection, then only a changed page is heard', () => {
    const { collections, local, sink } = setup();
    const heard: CollectionPage[] = [];
    collections.add('news', (p) => heard.push(p));
    sink.onCollection('news', page(1));
    sink.onCollection('news', page(1));
    sink.onCollection('news', page(2));
    expect(heard).toEqual([page(1), page(2)]);
    expect(local.collection('news')).toEqual(page(2));
  });
});
