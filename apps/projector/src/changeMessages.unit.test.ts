import { describe, expect, it } from 'vitest';
import { changeMessagesOf, keyIdsNeedingHash } from './changeMessages.js';
import { createKeyHashResolver } from './keyHashResolver.js';
import { decodeEvents } from './decodeEvents.js';
import { hashOf } from './testing/history.js';
import { itemEvent, recorded } from './testing/recordedEvents.js';

const keyCreated = (position: number, keyId: string, hash: string) =>
  recorded(position, `apikey-${keyId}`, 'ApiKeyCreated', { keyId, name: 'k', type: 'live', keyHash: hash, last4: 'abcd', allowedDomains: [], rateLimit: 5 });
const keyUpdated = (position: number, keyId: string, revision: number) =>
  recorded(position, `apikey-${keyId}`, 'ApiKeyUpdated', { keyId, name: 'k2', allowedDomains: ['a.com'], rateLimit: 6 }, revision);

describe('change messages derived from events', () => {
  it('one message per event a read model shows, with the event revision as version', () => {
    const events = decodeEvents([
      recorded(1, 'collection-c', 'CollectionCreated', { slug: 'c', name: 'C', sortableFields: [] }),
      itemEvent(2, 'a'),
      itemEvent(3, 'a', 1, { n: 9 }),
      recorded(4, 'item-a', 'ItemDeleted', { dataId: 'a', collection: 'c' }, 2),
      recorded(5, 'project', 'PlanChanged', { plan: 'business', monthlyQuota: null }, 3),
      recorded(6, 'collection-c', 'CollectionDeleted', { slug: 'c' }, 1),
    ]);
    expect(changeMessagesOf(events, new Map())).toEqual([
      { kind: 'collection', action: 'update', slug: 'c', version: 0, position: 1 },
      { kind: 'item', action: 'update', dataId: 'a', collectionId: 'c', version: 0, position: 2, data: { n: 0 } },
      { kind: 'item', action: 'update', dataId: 'a', collectionId: 'c', version: 1, position: 3, data: { n: 9 } },
      { kind: 'item', action: 'delete', dataId: 'a', collectionId: 'c', version: 2, position: 4, data: {} },
      { kind: 'plan', action: 'update', version: 3, position: 5 },
      { kind: 'collection', action: 'delete', slug: 'c', version: 1, position: 6 },
    ]);
  });

  it("a key update carries the key's hash from its created event, in the batch or earlier in the log", async () => {
    const log = [keyCreated(1, 'k1', hashOf('a')), keyCreated(2, 'k2', hashOf('b')), keyUpdated(3, 'k1', 1), keyUpdated(4, 'k2', 1), keyUpdated(5, 'gone', 1)];
    const resolve = createKeyHashResolver({ readStream: async (name) => log.filter((e) => e.streamName === name) });
    const batch = decodeEvents(log.slice(2));
    expect(keyIdsNeedingHash(batch)).toEqual(['k1', 'k2', 'gone']);
    expect(changeMessagesOf(batch, await resolve(batch))).toEqual([
      { kind: 'key', action: 'update', keyId: 'k1', keyHash: hashOf('a'), version: 1, position: 3 },
      { kind: 'key', action: 'update', keyId: 'k2', keyHash: hashOf('b'), version: 1, position: 4 },
    ]);
  });
});
