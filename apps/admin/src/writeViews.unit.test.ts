import type { ApiKeyEvent, CollectionEvent, ItemEvent } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import type { TimedEvent } from './commandHandler.js';
import { collectionViewOf, itemViewOf, keyViewOf } from './writeViews.js';

const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`;
const id = '00000000-0000-4000-8000-000000000001';

describe('a write answered from its events', () => {
  it('an item keeps the time of its creation and takes the time of its last change', () => {
    const history: TimedEvent<ItemEvent>[] = [
      { event: { type: 'ItemCreated', data: { id, dataId: 'dune', collection: 'books', data: { v: 1 } } }, at: at(1) },
      { event: { type: 'ItemUpdated', data: { dataId: 'dune', collection: 'books', data: { v: 2 } } }, at: at(2) },
    ];
    expect(itemViewOf(history)).toEqual({ id, dataId: 'dune', collectionId: 'books', data: { v: 2 }, createdAt: at(1), updatedAt: at(2) });
  });

  it('a deleted item is gone, and one created again starts anew', () => {
    const created: TimedEvent<ItemEvent> = { event: { type: 'ItemCreated', data: { id, dataId: 'dune', collection: 'books', data: {} } }, at: at(1) };
    const deleted: TimedEvent<ItemEvent> = { event: { type: 'ItemDeleted', data: { dataId: 'dune', collection: 'books' } }, at: at(2) };
    expect(itemViewOf([created, deleted])).toBeNull();
    expect(itemViewOf([created, deleted, { ...created, at: at(3) }])).toMatchObject({ createdAt: at(3), updatedAt: at(3) });
  });

  it('a collection carries the given item count and its own times', () => {
    const history: TimedEvent<CollectionEvent>[] = [
      { event: { type: 'CollectionCreated', data: { slug: 'books', name: 'Books', sortableFields: [] } }, at: at(1) },
      { event: { type: 'CollectionUpdated', data: { slug: 'books', name: 'All books', sortableFields: [] } }, at: at(4) },
    ];
    expect(collectionViewOf(history, 7)).toEqual({ slug: 'books', name: 'All books', sortableFields: [], createdAt: at(1), updatedAt: at(4), itemCount: 7 });
  });

  it('a key shows its masked form and usage, never its hash', () => {
    const history: TimedEvent<ApiKeyEvent>[] = [
      { event: { type: 'ApiKeyCreated', data: { keyId: 'k1', name: 'Site', type: 'live', keyHash: 'a'.repeat(64), last4: 'Zq7w', allowedDomains: [], rateLimit: 100 } }, at: at(1) },
      { event: { type: 'ApiKeyUpdated', data: { keyId: 'k1', name: 'Site 2', allowedDomains: ['example.com'], rateLimit: 50 } }, at: at(2) },
    ];
    const view = keyViewOf(history, { keyId: 'k1', lastUsedAt: at(3), requestCount: 9 });
    expect(view).toEqual({ keyId: 'k1', name: 'Site 2', type: 'live', maskedKey: 'pk_live_…Zq7w', allowedDomains: ['example.com'], rateLimit: 50, createdAt: at(1), lastUsedAt: at(3), requestCount: 9 });
  });
});
