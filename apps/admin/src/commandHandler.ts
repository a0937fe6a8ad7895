import { ConcurrencyError, foldEvents, toDomainEvent, type Decider, type PubstreamEvent } from '@pubstream/domain';
import type { EventStore, EventToAppend, RecordedEvent } from '@pubstream/event-store';
import { idempotentEventId } from './idempotency.js';

export interface CommandOptions {
  /** When given, event ids derive from it: a retry of the same write appends nothing new. */
  readonly idempotencyKey?: string;
}

export interface CommandOutcome<State, Event> {
  /** The stream's state after the command (the replayed state for an idempotent retry). */
  readonly state: State;
  /** The events this call appended (empty when nothing changed or on a replay). */
  readonly events: readonly Event[];
  /** Position of the last event appended, or null when nothing was appended. */
  readonly position: number | null;
  /** True when the Idempotency-Key had already been used on this stream: nothing was appended. */
  readonly replayed: boolean;
}

/** Decisions made from a stream's state: the domain events to append, ready for appendToStream. */
export interface Decision<State, Event> {
  readonly state: State;
  readonly events: Event[];
  readonly toAppend: EventToAppend[];
  readonly expectedRevision: number | 'no_stream';
  readonly replayed: boolean;
}

export interface CommandHandlerDeps {
  readonly eventStore: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
  /** Attempts on an optimistic-concurrency conflict before answering 409 (default 4). */
  readonly maxAttempts?: number;
}

/** Domain events of a stream, upcast and validated; unknown event types are skipped. */
export const domainEventsOf = <Event extends PubstreamEvent>(recorded: readonly RecordedEvent[]): Event[] =>
  recorded.map((event) => toDomainEvent(event)).filter((event): event is PubstreamEvent => event !== null) as Event[];

/**
 * Runs commands the event-sourced way: read the stream, fold it with the decider, decide, append
 * with the expected revision. A concurrency conflict re-reads and decides again a few times
 * before it surfaces as 409.
 */
export const createCommandHandler = (deps: CommandHandlerDeps) => {
  const maxAttempts = deps.maxAttempts ?? 4;

  /** Decides on an already-read stream; pure apart from the injected clock and ids. */
  const decideOn = <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    recorded: readonly RecordedEvent[],
    command: Command | ((state: State) => Command),
    options: CommandOptions,
  ): Decision<State, Event> => {
    const state = foldEvents(decider, domainEventsOf<Event>(recorded));
    const last = recorded.at(-1);
    const expectedRevision = last === undefined ? 'no_stream' : last.revision;
    const { idempotencyKey } = options;
    if (idempotencyKey !== undefined) {
      const firstId = idempotentEventId(idempotencyKey, streamName, 0);
      if (recorded.some((event) => event.eventId === firstId)) return { state, events: [], toAppend: [], expectedRevision, replayed: true };
    }
    const resolved = typeof command === 'function' ? (command as (state: State) => Command)(state) : command;
    const events = decider.decide(resolved, state);
    const occurredAt = deps.now().toISOString();
    const toAppend = events.map((event, index) => ({
      eventId: idempotencyKey === undefined ? deps.newId() : idempotentEventId(idempotencyKey, streamName, index),
      type: event.type,
      data: event.data,
      metadata: idempotencyKey === undefined ? { occurredAt } : { occurredAt, idempotencyKey },
    }));
    const next = events.reduce((current, event) => decider.evolve(current, event), state);
    return { state: next, events, toAppend, expectedRevision, replayed: false };
  };

  /** Reads a stream and folds it: the current state of one aggregate. */
  const load = async <Command, State, Event extends PubstreamEvent>(decider: Decider<Command, State, Event>, streamName: string): Promise<State> =>
    foldEvents(decider, domainEventsOf<Event>(await deps.eventStore.readStream(streamName)));

  const handle = async <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    command: Command | ((state: State) => Command),
    options: CommandOptions = {},
  ): Promise<CommandOutcome<State, Event>> => {
    for (let attempt = 1; ; attempt++) {
      const recorded = await deps.eventStore.readStream(streamName);
      const decision = decideOn(decider, streamName, recorded, command, options);
      if (decision.toAppend.length === 0) return { state: decision.state, events: [], position: null, replayed: decision.replayed };
      try {
        const result = await deps.eventStore.appendToStream(streamName, decision.toAppend, { expectedRevision: decision.expectedRevision });
        return { state: decision.state, events: decision.events, position: result.position, replayed: false };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= maxAttempts) throw error;
      }
    }
  };

  return { decideOn, load, handle };
};

export type CommandHandler = ReturnType<typeof createCommandHandler>;
