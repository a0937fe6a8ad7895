import type { PubstreamEvent } from '@pubstream/domain';
import type { ItemRecord } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { apiKeySpec, collectionSpec, foldProjection, itemProjection, itemSpec, planSpec, type ProjectedEvent, type ProjectionReads } from './index.js';

const uuid = '0b6c1f2e-3d4a-4b5c-8d6e-7f8091a2b3c4';
let position = 0;
const at = (minute: number): string => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const ev = (event: PubstreamEvent, revision: number, minute = revision): ProjectedEvent => ({ event, revision, position: ++position, at: at(minute) });
const hash = 'f'.repeat(64);

describe('item projection', () => {
  it('given ItemCreated then ItemUpdated, the record keeps id and createdAt and takes the new data, version and position', () => {
    const events = [
      ev({ type: 'ItemCreated', data: { id: uuid, dataId: 'a1', collection: 'news', data: { t: 1 } } }, 0),
      ev({ type: 'ItemUpdated', data: { dataId: 'a1', collection: 'news', data: { t: 2 } } }, 1, 5),
    ];
    const [p1, p2] = events.map((e) => e.position);
    expect(foldProjection(itemSpec, new Map(), events).map((o) => o.op)).toEqual([
      { kind: 'item.put', item: { id: uuid, dataId: 'a1', collectionId: 'news', data: { t: 1 }, createdAt: at(0), updatedAt: at(0), version: 0, position: p1 } },
      { kind: 'item.put', item: { id: uuid, dataId: 'a1', collectionId: 'news', data: { t: 2 }, createdAt: at(0), updatedAt: at(5), version: 1, position: p2 } },
    ]);
  });

  it('given an ItemUpdated for a stored record, it reads id and createdAt from the loaded record', () => {
    const stored: ItemRecord = { id: uuid, dataId: 'b', collectionId: 'c', data: {}, createdAt: at(0), updatedAt: at(0), version: 3, position: 3 };
    const update = ev({ type: 'ItemUpdated', data: { dataId: 'b', collection: 'c', data: { x: 1 } } }, 4, 9);
    const [put] = foldProjection(itemSpec, new Map([['b', stored]]), [update]);
    expect(put?.op).toEqual({ kind: 'item.put', item: { ...stored, data: { x: 1 }, updatedAt: at(9), version: 4, position: update.position } });
  });

  it('given ItemDeleted, it writes a delete with the revision; an update of an unknown item writes nothing', () => {
    const deleted = ev({ type: 'ItemDeleted', data: { dataId: 'z', collection: 'c' } }, 2);
    const ops = foldProjection(itemSpec, new Map(), [deleted, ev({ type: 'ItemUpdated', data: { dataId: 'y', collection: 'c', data: {} } }, 1)]);
    expect(ops.map((o) => o.op)).toEqual([{ kind: 'item.delete', dataId: 'z', collectionId: 'c', version: 2, position: deleted.position }]);
  });

  it('ignores events of other aggregates', () => {
    expect(foldProjection(itemSpec, new Map(), [ev({ type: 'PlanChanged', data: { plan: 'pro', monthlyQuota: null } }, 0)])).toEqual([]);
  });
});

describe('collection projection', () => {
  it('keeps createdAt across updates and deletes by slug', () => {
    const fields = [{ name: 'price', type: 'number' as const }];
    const events = [
      ev({ type: 'CollectionCreated', data: { slug: 'news', name: 'News', sortableFields: [] } }, 0),
      ev({ type: 'CollectionUpdated', data: { slug: 'news', name: 'All news', sortableFields: fields } }, 1),
      ev({ type: 'CollectionDeleted', data: { slug: 'news' } }, 2),
    ];
    const [p0, p1, p2] = events.map((e) => e.position);
    expect(foldProjection(collectionSpec, new Map(), events).map((o) => o.op)).toEqual([
      { kind: 'collection.put', collection: { slug: 'news', name: 'News', sortableFields: [], createdAt: at(0), updatedAt: at(0), version: 0, position: p0 } },
      { kind: 'collection.put', collection: { slug: 'news', name: 'All news', sortableFields: fields, createdAt: at(0), updatedAt: at(1), version: 1, position: p1 } },
      { kind: 'collection.delete', slug: 'news', version: 2, position: p2 },
    ]);
  });
});

describe('api key projection', () => {
  it('keeps hash, type and last4 on update; deletes by id and hash', () => {
    const ops = foldProjection(apiKeySpec, new Map(), [
      ev({ type: 'ApiKeyCreated', data: { keyId: 'k', name: 'Site', type: 'live', keyHash: hash, last4: 'abcd', allowedDomains: ['a.com'], rateLimit: 10 } }, 0),
      ev({ type: 'ApiKeyUpdated', data: { keyId: 'k', name: 'Site 2', allowedDomains: [], rateLimit: 20 } }, 1),
      ev({ type: 'ApiKeyDeleted', data: { keyId: 'k', keyHash: hash } }, 2),
    ]);
    expect(ops.map((o) => o.op)).toEqual([
      { kind: 'key.put', key: { keyId: 'k', keyHash: hash, name: 'Site', type: 'live', last4: 'abcd', allowedDomains: ['a.com'], rateLimit: 10, createdAt: at(0), version: 0 } },
      { kind: 'key.put', key: { keyId: 'k', keyHash: hash, name: 'Site 2', type: 'live', last4: 'abcd', allowedDomains: [], rateLimit: 20, createdAt: at(0), version: 1 } },
      { kind: 'key.delete', keyId: 'k', keyHash: hash, version: 2 },
    ]);
  });
});

describe('plan projection', () => {
  it('writes the whole plan record at the event revision', () => {
    const ops = foldProjection(planSpec, new Map(), [ev({ type: 'PlanChanged', data: { plan: 'enterprise', monthlyQuota: 1000 } }, 3)]);
    expect(ops.map((o) => o.op)).toEqual([{ kind: 'plan.put', plan: { plan: 'enterprise', monthlyQuota: 1000, version: 3 } }]);
  });
});

describe('batched loading', () => {
  it('reads every touched item in one getItems call, skipping items created in the batch', async () => {
    const calls: string[][] = [];
    const reads = { readModel: { getItems: async (ids: readonly string[]) => (calls.push([...ids]), ids.map(() => null)) } } as unknown as ProjectionReads;
    await itemProjection.project(reads, [
      ev({ type: 'ItemCreated', data: { id: uuid, dataId: 'new', collection: 'c', data: {} } }, 0),
      ev({ type: 'ItemUpdated', data: { dataId: 'new', collection: 'c', data: { a: 1 } } }, 1),
      ev({ type: 'ItemUpdated', data: { dataId: 'old1', collection: 'c', data: {} } }, 4),
      ev({ type: 'ItemDeleted', data: { dataId: 'old2', collection: 'c' } }, 2),
      ev({ type: 'ItemUpdated', data: { dataId: 'old1', collection: 'c', data: {} } }, 5),
    ]);
    expect(calls).toEqual([['old1', 'old2']]);
  });
});
