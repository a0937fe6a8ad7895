import { ValidationError } from '@pubstream/domain';
import type { EventToAppend } from './eventStore.js';

/** An event ready for storage: its id decided, data and metadata already JSON text. */
export interface PreparedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/**
 * Serializes a batch before any transaction starts, so a value JSON cannot encode (a BigInt, a
 * cycle) fails the append up front. Ids repeated inside one batch are a caller bug: rejected.
 */
export const prepareEvents = (events: readonly EventToAppend[], newEventId: () => string): PreparedEvent[] => {
  const prepared = events.map((event) => ({
    eventId: event.eventId ?? newEventId(),
    type: event.type,
    data: JSON.stringify(event.data) ?? 'null',
    metadata: JSON.stringify(event.metadata ?? {}),
  }));
  const ids = new Set(prepared.map((event) => event.eventId));
  if (ids.size !== prepared.length) throw new ValidationError('The same event id appears twice in one append');
  return prepared;
};
