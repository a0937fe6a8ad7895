import { ConcurrencyError } from '@pubstream/domain';
import type { AppendResult, EventToAppend, ExpectedRevision, RecordedEvent, StreamAppend, StreamAppendOutcome } from '@pubstream/event-store';
import type { AdminEventStore } from '../adminStores.js';

const revisionOk = (revision: number, expected: ExpectedRevision): boolean =>
  expected === 'any' || (expected === 'no_stream' ? revision < 0 : expected === 'stream_exists' ? revision >= 0 : expected === revision);

/** Appends to `log` as an event store does: a retry of known event ids is a no-op, else the expected revision must hold. */
const appendTo = (log: RecordedEvent[], clock: () => Date, streamName: string, events: readonly EventToAppend[], expected: ExpectedRevision): AppendResult => {
  const streamOf = () => log.filter((event) => event.streamName === streamName);
  const stream = streamOf();
  const known = events.length > 0 && events.every((event) => stream.some((recorded) => recorded.eventId === event.eventId));
  if (known) return { nextRevision: stream.length - 1, position: stream.find((recorded) => recorded.eventId === events.at(-1)?.eventId)?.position ?? 0 };
  if (!revisionOk(stream.length - 1, expected)) throw new ConcurrencyError(streamName, String(expected), String(stream.length - 1));
  for (const event of events) {
    const revision = streamOf().length;
    log.push({ eventId: event.eventId ?? `event-${log.length + 1}`, streamName, type: event.type, data: event.data, metadata: event.metadata ?? {}, revision, position: log.length + 1, recordedAt: clock() });
  }
  return { nextRevision: streamOf().length - 1, position: log.length };
};

/**
 * An event log in memory for the admin's unit tests: expected revisions, idempotent event ids
 * and all-or-nothing `appendAll`, as the SQLite adapter does them (its contract suite is
 * libs/event-store/src/testing). `fail` makes the next appends throw.
 */
export const createMemoryEventStore = (clock: () => Date = () => new Date(0)) => {
  const log: RecordedEvent[] = [];
  let failure: Error | null = null;
  const append = (entry: StreamAppend): AppendResult => {
    if (failure) throw failure;
    return appendTo(log, clock, entry.streamName, entry.events, entry.expectedRevision);
  };
  const store: AdminEventStore = {
    readStream: async (streamName) => log.filter((event) => event.streamName === streamName),
    appendToStream: async (streamName, events, options) => append({ streamName, events, expectedRevision: options.expectedRevision }),
    async appendAll(batch) {
      const before = log.length;
      try {
        return batch.map(append);
      } catch (error) {
        log.splice(before);
        throw error;
      }
    },
    appendToStreams: async (batch): Promise<StreamAppendOutcome[]> =>
      batch.map((entry) => {
        try {
          return { ok: true, result: append(entry) };
        } catch (error) {
          return { ok: false, error: error as Error };
        }
      }),
    headPosition: async () => log.length,
  };
  /** Every append throws `error` from now on (null: appends work again). */
  const fail = (error: Error | null) => {
    failure = error;
  };
  return { store, log, fail };
};
