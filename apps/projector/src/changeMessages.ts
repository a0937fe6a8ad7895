import type { ChangeMessage } from '@pubstream/change-stream';
import type { ProjectedEvent } from './projections/projection.js';

/** The keyIds of `ApiKeyUpdated` events: their messages need the key's hash, which they do not carry. */
export const keyIdsNeedingHash = (events: readonly ProjectedEvent[]): string[] => [
  ...new Set(events.flatMap(({ event }) => (event.type === 'ApiKeyUpdated' ? [event.data.keyId] : []))),
];

/**
 * The change message announcing one event's effect (docs/projections.md, publishing), derived from
 * the event alone: the publisher announces what the applier wrote long ago, and the read model may
 * have moved on since. `version` is the event's stream revision, as in the record it wrote.
 * `keyHashes` gives the hash of each key an `ApiKeyUpdated` names (from the key's created event);
 * an update of a key whose creation is unknown announces nothing, as it writes nothing.
 */
export const changeMessageOf = ({ event, revision: version, position }: ProjectedEvent, keyHashes: ReadonlyMap<string, string>): ChangeMessage | null => {
  switch (event.type) {
    case 'ItemCreated':
    case 'ItemUpdated':
      return { kind: 'item', action: 'update', dataId: event.data.dataId, collectionId: event.data.collection, version, position, data: event.data.data };
    case 'ItemDeleted':
      return { kind: 'item', action: 'delete', dataId: event.data.dataId, collectionId: event.data.collection, version, position, data: {} };
    case 'CollectionCreated':
    case 'CollectionUpdated':
      return { kind: 'collection', action: 'update', slug: event.data.slug, version, position };
    case 'CollectionDeleted':
      return { kind: 'collection', action: 'delete', slug: event.data.slug, version, position };
    case 'ApiKeyCreated':
      return { kind: 'key', action: 'update', keyId: event.data.keyId, keyHash: event.data.keyHash, version, position };
    case 'ApiKeyUpdated': {
      const keyHash = keyHashes.get(event.data.keyId);
      return keyHash === undefined ? null : { kind: 'key', action: 'update', keyId: event.data.keyId, keyHash, version, position };
    }
    case 'ApiKeyDeleted':
      return { kind: 'key', action: 'delete', keyId: event.data.keyId, keyHash: event.data.keyHash, version, position };
    case 'PlanChanged':
      return { kind: 'plan', action: 'update', version, position };
    case 'IdempotentRequestRecorded':
    case 'IdempotentResponseAccepted':
      // No read model shows the admin's idempotency records: nothing to announce.
      return null;
    default: {
      const _never: never = event;
      return _never;
    }
  }
};

/** The messages of a run of events, in log order. */
export const changeMessagesOf = (events: readonly ProjectedEvent[], keyHashes: ReadonlyMap<string, string>): ChangeMessage[] =>
  events.flatMap((event) => changeMessageOf(event, keyHashes) ?? []);
