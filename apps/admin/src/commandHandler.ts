import { ConcurrencyError, foldEvents, idempotencyDecider, toDomainEvent, type Decider, type IdempotencyCommand, type PubstreamEvent } from '@pubstream/domain';
import { businessTime, PartialAppendError, type EventStore, type EventToAppend, type RecordedEvent, type StreamAppend } from '@pubstream/event-store';
import { idempotencyStreamOf, idempotentEventId } from './idempotency.js';

/** A domain event with the business time it happened (what projections call `at`). */
export interface TimedEvent<Event> {
  readonly event: Event;
  readonly at: string;
}

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

export interface CommandOutcome<State, Event> extends Decided<State, Event> {
  /** Position of the last event of this command (also for a replay), or null when it has none. */
  readonly position: number | null;
}

/** Decisions made from a stream's state: the domain events to append, ready for appendToStream. */
export interface Decision<State, Event> extends Decided<State, Event> {
  readonly toAppend: EventToAppend[];
  readonly expectedRevision: number | 'no_stream';
  /** For a replay: the position of the first attempt's last event. */
  readonly replayPosition: number | null;
}

export interface CommandHandlerDeps {
  readonly eventStore: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
  /** Attempts on an optimistic-concurrency conflict before answering 409 (default 4). */
  readonly maxAttempts?: number;
}

/** Domain events of a stream with their times, upcast and validated; unknown event types are skipped. */
export const timedEventsOf = <Event extends PubstreamEvent>(recorded: readonly RecordedEvent[]): TimedEvent<Event>[] =>
  recorded.flatMap((entry) => {
    const event = toDomainEvent(entry);
    return event === null ? [] : [{ event: event as Event, at: businessTime(entry) }];
  });

/** Domain events of a stream, upcast and validated; unknown event types are skipped. */
export const domainEventsOf = <Event extends PubstreamEvent>(recorded: readonly RecordedEvent[]): Event[] =>
  timedEventsOf<Event>(recorded).map((timed) => timed.event);

/** The index of the last event a command with this key appended to the stream, or -1. */
const lastIndexOfKey = (recorded: readonly RecordedEvent[], idempotencyKey: string, streamName: string): number => {
  const first = recorded.findIndex((event) => event.eventId === idempotentEventId(idempotencyKey, streamName, 0));
  if (first < 0) return -1;
  let last = first;
  while (recorded[last + 1]?.eventId === idempotentEventId(idempotencyKey, streamName, last + 1 - first)) last++;
  return last;
};

/**
 * Runs commands the event-sourced way: read the stream, fold it with the decider, decide, append
 * with the expected revision. A concurrency conflict re-reads and decides again a few times
 * before it surfaces as 409.
 */
export const createCommandHandler = (deps: CommandHandlerDeps) => {
  const maxAttempts = deps.maxAttempts ?? 4;
  const metadataOf = (occurredAt: string, idempotencyKey: string | undefined) => (idempotencyKey === undefined ? { occurredAt } : { occurredAt, idempotencyKey });

  /** A retry of a keyed command: the state, events and times as its first attempt left them. */
  const replayOn = <State, Event extends PubstreamEvent>(decider: Decider<unknown, State, Event>, recorded: readonly RecordedEvent[], first: number, last: number) => {
    const history = timedEventsOf<Event>(recorded.slice(0, last + 1));
    const events = domainEventsOf<Event>(recorded.slice(first, last + 1));
    const state = foldEvents(decider, history.map((timed) => timed.event));
    return { state, events, history, replayed: true, replayPosition: recorded[last]?.position ?? null };
  };

  /** Decides on an already-read stream; pure apart from the injected clock and ids. */
  const decideOn = <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    recorded: readonly RecordedEvent[],
    command: Command | ((state: State) => Command),
    options: Pick<CommandOptions, 'idempotencyKey'>,
  ): Decision<State, Event> => {
    const last = recorded.at(-1);
    const expectedRevision = last === undefined ? 'no_stream' : last.revision;
    const { idempotencyKey } = options;
    if (idempotencyKey !== undefined) {
      const lastOfKey = lastIndexOfKey(recorded, idempotencyKey, streamName);
      if (lastOfKey >= 0) {
        const first = recorded.findIndex((event) => event.eventId === idempotentEventId(idempotencyKey, streamName, 0));
        return { ...replayOn(decider as Decider<unknown, State, Event>, recorded, first, lastOfKey), toAppend: [], expectedRevision };
      }
    }
    const history = timedEventsOf<Event>(recorded);
    const state = foldEvents(decider, history.map((timed) => timed.event));
    const resolved = typeof command === 'function' ? (command as (state: State) => Command)(state) : command;
    const events = decider.decide(resolved, state);
    const occurredAt = deps.now().toISOString();
    const toAppend = events.map((event, index) => ({
      eventId: idempotencyKey === undefined ? deps.newId() : idempotentEventId(idempotencyKey, streamName, index),
      type: event.type,
      data: event.data,
      metadata: metadataOf(occurredAt, idempotencyKey),
    }));
    const next = events.reduce((current, event) => decider.evolve(current, event), state);
    const decided = [...history, ...events.map((event) => ({ event, at: occurredAt }))];
    return { state: next, events, history: decided, toAppend, expectedRevision, replayed: false, replayPosition: null };
  };

  /** The append that binds `idempotencyKey` to a request: the first event of its own stream. */
  const recordEntry = (idempotencyKey: string, command: RecordRequest): StreamAppend => {
    const streamName = idempotencyStreamOf(idempotencyKey);
    const occurredAt = deps.now().toISOString();
    const events = idempotencyDecider.decide(command, idempotencyDecider.initialState()).map((event, index) => ({
      eventId: idempotentEventId(idempotencyKey, streamName, index),
      type: event.type,
      data: event.data,
      metadata: { occurredAt },
    }));
    return { streamName, events, expectedRevision: 'no_stream' };
  };

  /** Reads a stream and folds it: the current state of one aggregate. */
  const load = async <Command, State, Event extends PubstreamEvent>(decider: Decider<Command, State, Event>, streamName: string): Promise<State> =>
    foldEvents(decider, domainEventsOf<Event>(await deps.eventStore.readStream(streamName)));

  /**
   * Appends the decision and, when the request is to be bound, its idempotency record after it
   * (so an adapter that cannot append both at once never leaves a record without its write).
   * Returns the write's position; throws a ConcurrencyError to decide again.
   */
  const appendDecision = async <State, Event>(streamName: string, decision: Decision<State, Event>, options: CommandOptions<State, Event>): Promise<number | null> => {
    const write: StreamAppend = { streamName, events: decision.toAppend, expectedRevision: decision.expectedRevision };
    if (options.record === undefined || options.idempotencyKey === undefined) {
      return (await deps.eventStore.appendToStream(streamName, write.events, { expectedRevision: write.expectedRevision })).position;
    }
    const record = recordEntry(options.idempotencyKey, options.record(decision));
    const writes = decision.toAppend.length > 0 ? [write] : [];
    try {
      const results = await deps.eventStore.appendAll([...writes, record]);
      return writes.length > 0 ? (results[0]?.position ?? null) : null;
    } catch (error) {
      // EventStoreDB: the write is in, its record is not. The write stands; a retry with the same
      // key finds its events by id and appends the record then (docs/decisions.md).
      if (error instanceof PartialAppendError) return error.written[0]?.position ?? null;
      throw error;
    }
  };

  /** A keyed retry whose record is missing (written before records existed, or a partial append): bind it now. */
  const repairRecord = async <State, Event>(decision: Decision<State, Event>, options: CommandOptions<State, Event>): Promise<void> => {
    if (options.record === undefined || options.idempotencyKey === undefined) return;
    // Best effort: the answer is the write's own, whether or not the binding lands.
    await deps.eventStore.appendAll([recordEntry(options.idempotencyKey, options.record(decision))]).catch(() => undefined);
  };

  const handle = async <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    command: Command | ((state: State) => Command),
    options: CommandOptions<State, Event> = {},
  ): Promise<CommandOutcome<State, Event>> => {
    for (let attempt = 1; ; attempt++) {
      const recorded = await deps.eventStore.readStream(streamName);
      const decision = decideOn(decider, streamName, recorded, command, options);
      const { state, events, history, replayed } = decision;
      if (replayed) {
        await repairRecord(decision, options);
        return { state, events, history, replayed, position: decision.replayPosition };
      }
      if (decision.toAppend.length === 0 && options.record === undefined) return { state, events, history, replayed, position: null };
      try {
        const position = await appendDecision(streamName, decision, options);
        return { state, events, history, replayed, position };
      } catch (error) {
        // A conflict on the write's stream is decided again; one on the record's stream means
        // another request took the key meanwhile: the caller looks at that record.
        if (!(error instanceof ConcurrencyError) || error.streamName !== streamName || attempt >= maxAttempts) throw error;
      }
    }
  };

  return { decideOn, load, handle };
};

export type CommandHandler = ReturnType<typeof createCommandHandler>;
