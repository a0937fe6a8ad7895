import { idempotencyDecider } from '@pubstream/domain';
import type { StreamAppend } from '@pubstream/event-store';
import type { RecordRequest } from './decision.js';
import { idempotencyStreamOf, idempotentEventId } from './idempotency.js';

/**
 * The append that binds `idempotencyKey` to a request: the first event of the key's own stream
 * (`idempotency-<SHA-256 of the key>`, docs/decisions.md), so a second binding conflicts. Pure.
 */
export const idempotencyRecordEntry = (idempotencyKey: string, command: RecordRequest, occurredAt: string): StreamAppend => {
  const streamName = idempotencyStreamOf(idempotencyKey);
  const events = idempotencyDecider.decide(command, idempotencyDecider.initialState()).map((event, index) => ({
    eventId: idempotentEventId(idempotencyKey, streamName, index),
    type: event.type,
    data: event.data,
    metadata: { occurredAt },
  }));
  return { streamName, events, expectedRevision: 'no_stream' };
};
