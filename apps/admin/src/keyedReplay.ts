import { foldEvents, type Decider, type PubstreamEvent } from '@pubstream/domain';
import type { RecordedEvent } from '@pubstream/event-store';
import type { Decided } from './decision.js';
import { idempotentEventId } from './idempotency.js';
import { domainEventsOf, timedEventsOf } from './timedEvents.js';

/** A retry of a keyed command, as its first attempt left the stream. */
export interface KeyedReplay<State, Event> extends Decided<State, Event> {
  readonly replayed: true;
  /** The position of the first attempt's last event. */
  readonly replayPosition: number | null;
}

/** The indexes of the first and last events a command with this key appended to the stream, or null. */
const eventsOfKey = (recorded: readonly RecordedEvent[], idempotencyKey: string, streamName: string): { first: number; last: number } | null => {
  const first = recorded.findIndex((event) => event.eventId === idempotentEventId(idempotencyKey, streamName, 0));
  if (first < 0) return null;
  let last = first;
  while (recorded[last + 1]?.eventId === idempotentEventId(idempotencyKey, streamName, last + 1 - first)) last++;
  return { first, last };
};

/**
 * When the stream already holds the events of a command with this Idempotency-Key (their ids
 * derive from it), the state, events and times as that first attempt left them; else null.
 * Pure: a retry is recognised from the log alone (docs/admin-api.md).
 */
export const keyedReplay = <State, Event extends PubstreamEvent>(
  decider: Decider<unknown, State, Event>,
  streamName: string,
  recorded: readonly RecordedEvent[],
  idempotencyKey: string,
): KeyedReplay<State, Event> | null => {
  const range = eventsOfKey(recorded, idempotencyKey, streamName);
  if (range === null) return null;
  const history = timedEventsOf<Event>(recorded.slice(0, range.last + 1));
  const events = domainEventsOf<Event>(recorded.slice(range.first, range.last + 1));
  const state = foldEvents(decider, history.map((timed) => timed.event));
  return { state, events, history, replayed: true, replayPosition: recorded[range.last]?.position ?? null };
};
