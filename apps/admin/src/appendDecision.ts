import { PartialAppendError, type EventStore, type StreamAppend } from '@pubstream/event-store';
import type { CommandOptions, Decision } from './decision.js';
import { idempotencyRecordEntry } from './idempotencyRecordEntry.js';

/** What appending a decision needs: the log, and the clock for the idempotency record. */
export interface AppendDeps {
  readonly eventStore: Pick<EventStore, 'appendToStream' | 'appendAll'>;
  readonly now: () => Date;
}

/**
 * Appends the decision and, when the request is to be bound, its idempotency record after it
 * (so an adapter that cannot append both at once never leaves a record without its write).
 * Returns the write's position; throws a ConcurrencyError to decide again.
 */
export const appendDecision = async <State, Event>(deps: AppendDeps, streamName: string, decision: Decision<State, Event>, options: CommandOptions<State, Event>): Promise<number | null> => {
  const write: StreamAppend = { streamName, events: decision.toAppend, expectedRevision: decision.expectedRevision };
  if (options.record === undefined || options.idempotencyKey === undefined) {
    return (await deps.eventStore.appendToStream(streamName, write.events, { expectedRevision: write.expectedRevision })).position;
  }
  const record = idempotencyRecordEntry(options.idempotencyKey, options.record(decision), deps.now().toISOString());
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
export const repairRecord = async <State, Event>(deps: AppendDeps, decision: Decision<State, Event>, options: CommandOptions<State, Event>): Promise<void> => {
  if (options.record === undefined || options.idempotencyKey === undefined) return;
  // Best effort: the answer is the write's own, whether or not the binding lands.
  const entry = idempotencyRecordEntry(options.idempotencyKey, options.record(decision), deps.now().toISOString());
  await deps.eventStore.appendAll([entry]).catch(() => undefined);
};
