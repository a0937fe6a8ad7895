import { createHash } from 'node:crypto';
import { streamNames, ValidationError } from '@pubstream/domain';

/** Longest accepted `Idempotency-Key` header value. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/**
 * A UUID-shaped (version 8, RFC 9562 "custom") id derived from SHA-256 of its parts. The same
 * parts always give the same id, so a retried write carries the same event ids and the event
 * store's idempotent append stores it once.
 */
export const deterministicUuid = (...parts: readonly string[]): string => {
  const bytes = createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** The id of the `index`-th event a command with this Idempotency-Key appends to `streamName`. */
export const idempotentEventId = (idempotencyKey: string, streamName: string, index: number): string =>
  deterministicUuid('event', idempotencyKey, streamName, String(index));

/** The stream that binds an Idempotency-Key to its request: named by the key's SHA-256, so any key fits. */
export const idempotencyStreamOf = (idempotencyKey: string): string => streamNames.idempotency(createHash('sha256').update(idempotencyKey).digest('hex'));

/** Reads and checks the `Idempotency-Key` header: undefined when absent. */
export const parseIdempotencyKey = (header: string | string[] | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (value === '' || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ValidationError(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters`);
  }
  return value;
};
