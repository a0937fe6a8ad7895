import { streamNames } from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import { decodeEvents } from './decodeEvents.js';
import type { ProjectedEvent } from './projections/projection.js';

/** Keys are few; this bounds the memory of a projector that saw very many. */
const MAX_REMEMBERED = 10_000;

export type KeyHashResolver = (events: readonly ProjectedEvent[]) => Promise<ReadonlyMap<string, string>>;

/**
 * The hash of every key the events name, for their change messages (an `ApiKeyUpdated` does not
 * carry it, and the API drops its cached key by hash). Taken from the events themselves when they
 * hold the key's creation or deletion, else from the key's own stream in the log, never from the
 * read model (which has moved on, or lost the key). Hashes never change, so they are remembered.
 */
export const createKeyHashResolver = (eventStore: Pick<EventStore, 'readStream'>): KeyHashResolver => {
  const known = new Map<string, string>();
  const remember = (keyId: string, keyHash: string): void => {
    if (known.size >= MAX_REMEMBERED) known.delete(known.keys().next().value as string);
    known.set(keyId, keyHash);
  };
  const fromStream = async (keyId: string): Promise<void> => {
    for (const { event } of decodeEvents(await eventStore.readStream(streamNames.apiKey(keyId)))) {
      if (event.type === 'ApiKeyCreated') return remember(keyId, event.data.keyHash);
    }
  };
  return async (events) => {
    const missing = new Set<string>();
    for (const { event } of events) {
      if (event.type === 'ApiKeyCreated' || event.type === 'ApiKeyDeleted') remember(event.data.keyId, event.data.keyHash);
      else if (event.type === 'ApiKeyUpdated' && !known.has(event.data.keyId)) missing.add(event.data.keyId);
    }
    await Promise.all([...missing].map(fromStream));
    return known;
  };
};
