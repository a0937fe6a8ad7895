import { ConcurrencyError } from '@pubstream/domain';
import type { AppendResult, EventToAppend, ExpectedRevision, RecordedEvent, StreamAppend, StreamAppendOutcome } from '@pubstream/event-store';
import type { AdminEventStore } from '../adminStores.js';

/**
 * An event log in memory for the admin's unit tests: expected revisions, idempotent event ids
 * and all-or-nothing `appendAll`, as the SQLite adapter does them (its contract suite is
 * libs/event-store/src/testing). `fail` makes the next appends throw.
 */
export const createMemoryEventStore = (clock: () => Date = () => new Date(0)) => {
  const log: RecordedEvent[] = [];
  let failure: Error | null = null;
  const streamOf = (streamName: string) => log.filter((event) => event.streamName === streamName);

  const check = (streamName: string, expected: ExpectedRevision) => {
    const revision = streamOf(streamName).length - 1;
    const ok = expected === 'any' || (expected === 'no_stream' ? revision < 0 : expected === 'stream_exists' ? revision >= 0 : expected === revision);
    if (!ok) throw new ConcurrencyError(streamName, String(expected), String(revision));
  };

  const append = (streamName: string, events: readonly EventToAppend[], expected: ExpectedRevision): AppendResult => {
    if (failure) throw failure;
    const stream = streamOf(streamName);
    const known = events.length > 0 && events.every((event) => stream.some((recorded) => recorded.eventId === event.eventId));
    if (known) return { nextRevision: stream.length - 1, position: stream.find((recorded) => recorded.eventId === events.at(-1)?.eventId)?.position ?? 0 };
    check(streamName, expected);
    for (const event of events) {
      const revision = streamOf(streamName).length;
      log.push({ eventId: event.eventId ?? `event-${log.length + 1}`, streamName, type: event.type, data: event.data, metadata: event.metadata ?? {}, revision, position: log.length + 1, recordedAt: clock() });
    }
    return { nextRevision: streamOf(streamName).length - 1, position: log.length };
  };

  const store: AdminEventStore = {
    async readStream(streamName) {
      return streamOf(streamName);
    },
    async appendToStream(streamName, events, options) {
      return append(streamName, events, options.expectedRevision);
    },
    async appendAll(batch: readonly StreamAppend[]) {
      const before = log.length;
      try {
        return batch.map((entry) => append(entry.streamName, entry.events, entry.expectedRevision));
      } catch (error) {
        log.splice(before);
        throw error;
      }
    },
    async appendToStreams(batch: readonly StreamAppend[]): Promise<StreamAppendOutcome[]> {
      return batch.map((entry) => {
        try {
          return { ok: true, result: append(entry.streamName, entry.events, entry.expectedRevision) };
        } catch (error) {
          return { ok: false, error: error as Error };
        }
      });
    },
    async headPosition() {
      return log.length;
    },
  };
  return {
    store,
    log,
    /** Every append throws `error` from now on (null: appends work again). */
    fail(error: Error | null) {
      failure = error;
    },
  };
};
