import { ConcurrencyError, foldEvents, type Decider, type PubstreamEvent } from '@pubstream/domain';
import type { EventStore, RecordedEvent } from '@pubstream/event-store';
import { appendDecision, repairRecord } from './appendDecision.js';
import { decideCommand } from './decideCommand.js';
import type { CommandOptions, Decided, Decision } from './decision.js';
import { domainEventsOf } from './timedEvents.js';

export type { CommandOptions, Decided, Decision, RecordRequest } from './decision.js';
export type { TimedEvent } from './timedEvents.js';

export interface CommandOutcome<State, Event> extends Decided<State, Event> {
  /** Position of the last event of this command (also for a replay), or null when it has none. */
  readonly position: number | null;
}

export interface CommandHandlerDeps {
  readonly eventStore: Pick<EventStore, 'readStream' | 'appendToStream' | 'appendAll'>;
  readonly now: () => Date;
  readonly newId: () => string;
  /** Attempts on an optimistic-concurrency conflict before answering 409 (default 4). */
  readonly maxAttempts?: number;
}

/** A conflict on the write's own stream is decided again; one on the record's stream means another request took the key. */
const decidesAgain = (error: unknown, streamName: string): boolean => error instanceof ConcurrencyError && error.streamName === streamName;

const outcomeOf = <State, Event>(decision: Decision<State, Event>, position: number | null): CommandOutcome<State, Event> => {
  const { state, events, history, replayed } = decision;
  return { state, events, history, replayed, position };
};

/**
 * Runs commands the event-sourced way: read the stream, decide on it (decideCommand.ts), append
 * with the expected revision (appendDecision.ts). A concurrency conflict re-reads and decides
 * again a few times before it surfaces as 409.
 */
export const createCommandHandler = (deps: CommandHandlerDeps) => {
  const maxAttempts = deps.maxAttempts ?? 4;

  /** Decides on an already-read stream; pure apart from the injected clock and ids. */
  const decideOn = <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    recorded: readonly RecordedEvent[],
    command: Command | ((state: State) => Command),
    options: Pick<CommandOptions, 'idempotencyKey'>,
  ): Decision<State, Event> => decideCommand(decider, streamName, recorded, command, options, deps);

  /** Reads a stream and folds it: the current state of one aggregate. */
  const load = async <Command, State, Event extends PubstreamEvent>(decider: Decider<Command, State, Event>, streamName: string): Promise<State> =>
    foldEvents(decider, domainEventsOf<Event>(await deps.eventStore.readStream(streamName)));

  const handle = async <Command, State, Event extends PubstreamEvent>(
    decider: Decider<Command, State, Event>,
    streamName: string,
    command: Command | ((state: State) => Command),
    options: CommandOptions<State, Event> = {},
  ): Promise<CommandOutcome<State, Event>> => {
    for (let attempt = 1; ; attempt++) {
      const decision = decideOn(decider, streamName, await deps.eventStore.readStream(streamName), command, options);
      if (decision.replayed) {
        await repairRecord(deps, decision, options);
        return outcomeOf(decision, decision.replayPosition);
      }
      if (decision.toAppend.length === 0 && options.record === undefined) return outcomeOf(decision, null);
      try {
        return outcomeOf(decision, await appendDecision(deps, streamName, decision, options));
      } catch (error) {
        if (!decidesAgain(error, streamName) || attempt >= maxAttempts) throw error;
      }
    }
  };

  return { decideOn, load, handle };
};

export type CommandHandler = ReturnType<typeof createCommandHandler>;
