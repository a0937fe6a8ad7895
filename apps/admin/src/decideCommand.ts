import { foldEvents, type Decider, type PubstreamEvent } from '@pubstream/domain';
import type { RecordedEvent } from '@pubstream/event-store';
import type { Decision } from './decision.js';
import { idempotentEventId } from './idempotency.js';
import { keyedReplay } from './keyedReplay.js';
import { timedEventsOf } from './timedEvents.js';

/** The clock and the id source of new events (injected, so decisions are exact in tests). */
export interface DecisionClock {
  readonly now: () => Date;
  readonly newId: () => string;
}

const metadataOf = (occurredAt: string, idempotencyKey: string | undefined) => (idempotencyKey === undefined ? { occurredAt } : { occurredAt, idempotencyKey });

/**
 * Decides a command on an already-read stream, the event-sourced way: fold the stream with the
 * decider, resolve the command against that state (a function of it, e.g. "keep the current
 * quota"), decide, and prepare the events to append with the stream's expected revision. A keyed
 * command whose events the stream already holds is a replay and appends nothing. Pure apart from
 * the injected clock and ids.
 */
export const decideCommand = <Command, State, Event extends PubstreamEvent>(
  decider: Decider<Command, State, Event>,
  streamName: string,
  recorded: readonly RecordedEvent[],
  command: Command | ((state: State) => Command),
  options: { readonly idempotencyKey?: string },
  clock: DecisionClock,
): Decision<State, Event> => {
  const last = recorded.at(-1);
  const expectedRevision = last === undefined ? 'no_stream' : last.revision;
  const { idempotencyKey } = options;
  const replay = idempotencyKey === undefined ? null : keyedReplay(decider as Decider<unknown, State, Event>, streamName, recorded, idempotencyKey);
  if (replay !== null) return { ...replay, toAppend: [], expectedRevision };
  const history = timedEventsOf<Event>(recorded);
  const state = foldEvents(decider, history.map((timed) => timed.event));
  const resolved = typeof command === 'function' ? (command as (state: State) => Command)(state) : command;
  const events = decider.decide(resolved, state);
  const occurredAt = clock.now().toISOString();
  const toAppend = events.map((event, index) => ({
    eventId: idempotencyKey === undefined ? clock.newId() : idempotentEventId(idempotencyKey, streamName, index),
    type: event.type,
    data: event.data,
    metadata: metadataOf(occurredAt, idempotencyKey),
  }));
  const next = events.reduce((current, event) => decider.evolve(current, event), state);
  const decided = [...history, ...events.map((event) => ({ event, at: occurredAt }))];
  return { state: next, events, history: decided, toAppend, expectedRevision, replayed: false, replayPosition: null };
};
