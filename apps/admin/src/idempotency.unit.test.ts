import { ValidationError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { deterministicUuid, idempotentEventId, parseIdempotencyKey } from './idempotency.js';

describe('idempotent event ids', () => {
  it('are UUID-shaped (version 8, RFC 9562 variant)', () => {
    expect(idempotentEventId('key-1', 'item-a', 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('are the same for the same key, stream and index, and differ otherwise', () => {
    const id = idempotentEventId('key-1', 'item-a', 0);
    expect(idempotentEventId('key-1', 'item-a', 0)).toBe(id);
    expect(new Set([id, idempotentEventId('key-2', 'item-a', 0), idempotentEventId('key-1', 'item-b', 0), idempotentEventId('key-1', 'item-a', 1)]).size).toBe(4);
  });
  it('cannot be confused by moving text between parts', () => {
    expect(deterministicUuid('ab', 'c')).not.toBe(deterministicUuid('a', 'bc'));
  });
});

describe('parseIdempotencyKey', () => {
  it('is undefined when the header is absent and trims a present one', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey(' 7d0c-retry ')).toBe('7d0c-retry');
  });
  it.each(['', '   ', 'x'.repeat(201), 'with space', 'ünïcode'])('refuses %j with 400', (value) => {
    expect(() => parseIdempotencyKey(value)).toThrow(ValidationError);
  });
});
