import type { EventStore } from '@pubstream/event-store';
import type { Stores } from '@pubstream/read-model';

/** A small history for projector tests, and a reader's view of a read model. */
export const hashOf = (c: string): string => c.repeat(64);
export const uuidOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const occurredAt = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

let minute = 0;
export const append = async (eventStore: EventStore, stream: string, type: string, data: unknown, metadata: Record<string, unknown> = {}): Promise<number> => {
  const result = await eventStore.appendToStream(stream, [{ type, data, metadata: { occurredAt: occurredAt(++minute), ...metadata } }], { expectedRevision: 'any' });
  return result.position;
};

/** A small history touching every projection: create, update, delete, a key, the plan. */
export const writeHistory = async (eventStore: EventStore): Promise<number> => {
  await append(eventStore, 'collection-news', 'CollectionCreated', { slug: 'news', name: 'News', sortableFields: [{ name: 'rank', type: 'number' }] });
  await append(eventStore, 'item-a1', 'ItemCreated', { id: uuidOf(1), dataId: 'a1', collection: 'news', data: { rank: 2, title: 'one' } });
  await append(eventStore, 'item-a2', 'ItemCreated', { id: uuidOf(2), dataId: 'a2', collection: 'news', data: { rank: 1 } });
  await append(eventStore, 'item-a1', 'ItemUpdated', { dataId: 'a1', collection: 'news', data: { rank: 3, title: 'one, again' } });
  await append(eventStore, 'item-a3', 'ItemCreated', { id: uuidOf(3), dataId: 'a3', collection: 'news', data: {} });
  await append(eventStore, 'item-a3', 'ItemDeleted', { dataId: 'a3', collection: 'news' });
  await append(eventStore, 'collection-news', 'CollectionUpdated', { slug: 'news', name: 'All news', sortableFields: [{ name: 'rank', type: 'number' }] });
  await append(eventStore, 'apikey-k1', 'ApiKeyCreated', { keyId: 'k1', name: 'Site', type: 'live', keyHash: hashOf('a'), last4: 'wxyz', allowedDomains: ['a.com'], rateLimit: 100 });
  await append(eventStore, 'apikey-k1', 'ApiKeyUpdated', { keyId: 'k1', name: 'Site v2', allowedDomains: ['a.com', '*.b.com'], rateLimit: 50 });
  await append(eventStore, 'apikey-k2', 'ApiKeyCreated', { keyId: 'k2', name: 'Old', type: 'test', keyHash: hashOf('b'), last4: 'abcd', allowedDomains: [], rateLimit: 10 });
  await append(eventStore, 'apikey-k2', 'ApiKeyDeleted', { keyId: 'k2', keyHash: hashOf('b') });
  await append(eventStore, 'collection-tmp', 'CollectionCreated', { slug: 'tmp', name: 'Temp', sortableFields: [] });
  await append(eventStore, 'item-t1', 'ItemCreated', { id: uuidOf(4), dataId: 't1', collection: 'tmp', data: { x: 1 } });
  await append(eventStore, 'item-t1', 'ItemDeleted', { dataId: 't1', collection: 'tmp' });
  await append(eventStore, 'collection-tmp', 'CollectionDeleted', { slug: 'tmp' });
  return append(eventStore, 'project', 'PlanChanged', { plan: 'enterprise', monthlyQuota: null });
};

/** Everything a reader can see, for equality checks between read models. */
export const snapshot = async ({ readModel, keys }: Pick<Stores, 'readModel' | 'keys'>) => {
  const collections = await readModel.listCollections();
  const pages = await Promise.all(collections.map((c) => readModel.getCollectionPage(c.slug, { sort: 'dataId', order: 'asc', offset: 0, limit: 100 })));
  return {
    collections,
    pages,
    items: await readModel.getItems(['a1', 'a2', 'a3', 't1']),
    keys: await keys.listKeys(),
    keyByHash: [await keys.getKeyByHash(hashOf('a')), await keys.getKeyByHash(hashOf('b'))],
    plan: await keys.getPlan(),
  };
};
