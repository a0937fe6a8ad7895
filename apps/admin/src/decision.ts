import type { IdempotencyCommand } from '@pubstream/domain';
import type { EventToAppend } from '@pubstream/event-store';
import type { TimedEvent } from './timedEvents.js';

/** What a command did to its stream: enough to build the write's answer without the read model. */
export interface Decided<State, Event> {
  /** The stream's state right after this command's events. */
  readonly state: State;
  /** The events of this command (for a replay: those the first attempt appended). */
  readonly events: readonly Event[];
  /** The stream's events with their times, up to and including this command's. */
  readonly history: readonly TimedEvent<Event>[];
  /** True when the Idempotency-Key had already written this command's events: nothing new was appended. */
  readonly replayed: boolean;
}

/** Decisions made from a stream's state: the domain events to append, ready for appendToStream. */
export interface Decision<State, Event> extends Decided<State, Event> {
  readonly toAppend: EventToAppend[];
  readonly expectedRevision: number | 'no_stream';
  /** For a replay: the position of the first attempt's last event. */
  readonly replayPosition: number | null;
}

export type RecordRequest = Extract<IdempotencyCommand, { type: 'RecordRequest' }>;

export interface CommandOptions<State = unknown, Event = unknown> {
  /** When given, event ids derive from it: a retry of the same write appends nothing new. */
  readonly idempotencyKey?: string;
  /**
   * Binds the Idempotency-Key to the request: the record (its fingerprint and answer, built from
   * the decision) is appended together with the write, in one appendAll (docs/admin-api.md).
   */
  readonly record?: (decided: Decided<State, Event>) => RecordRequest;
}
