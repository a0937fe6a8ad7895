import { createHash } from 'node:crypto';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where the original id is kept when EventStoreDB needs a UUID instead. */
export const ORIGINAL_EVENT_ID_KEY = 'pubstreamEventId';

export const isCanonicalUuid = (value: string): boolean => CANONICAL_UUID.test(value);

/**
 * EventStoreDB event ids must be UUIDs. Other ids (the port allows any string, e.g. one derived
 * from an Idempotency-Key) become a name-based UUID (version 5 layout, SHA-1): the same id always
 * gives the same UUID, so the server's deduplication by id still makes retries idempotent.
 */
export const uuidForEventId = (eventId: string): string => {
  if (isCanonicalUuid(eventId)) return eventId;
  const bytes = createHash('sha1').update('pubstream-event-id:').update(eventId).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
