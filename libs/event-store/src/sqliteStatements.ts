import type Database from 'better-sqlite3';
import { isPubstreamError } from '@pubstream/domain';
import type { AppendResult, EventToAppend, ExpectedRevision, RecordedEvent, StreamAppend, StreamAppendOutcome } from './eventStore.js';
import { prepareEvents } from './preparedEvent.js';
import { createSqliteAppender } from './sqliteAppender.js';
import { rowToRecordedEvent } from './sqliteEventRows.js';
import type { EventRow } from './sqliteSchema.js';

/** The embedded store's reads and transactions, prepared once on its database. */
export interface SqliteStatements {
  readStream(streamName: string): RecordedEvent[];
  /** Events with `after < position <= until`, at most `limit`, in position order. */
  readPage(after: number, limit: number, until?: number): RecordedEvent[];
  headPosition(): number;
  /** One append, in an IMMEDIATE transaction. */
  appendOne(streamName: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): AppendResult;
  /** Every entry in one IMMEDIATE transaction; each entry succeeds or fails alone. */
  appendEach(batch: readonly StreamAppend[]): StreamAppendOutcome[];
  /** Every entry in one IMMEDIATE transaction: all or nothing. */
  appendAll(batch: readonly StreamAppend[]): AppendResult[];
}

/** Prepares {@link SqliteStatements}; the events table must exist. */
export function prepareSqliteStatements(db: Database.Database, now: () => Date, newEventId: () => string): SqliteStatements {
  const append = db.transaction(createSqliteAppender(db, now));
  const selectStream = db.prepare<[string], EventRow>('SELECT * FROM events WHERE stream_name = ? ORDER BY revision');
  const selectPage = db.prepare<[number, number, number], EventRow>('SELECT * FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?');
  const selectHeadPosition = db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events');

  const appendEach = db.transaction((batch: readonly StreamAppend[]): StreamAppendOutcome[] =>
    batch.map((entry) => {
      try {
        // A nested better-sqlite3 transaction is a SAVEPOINT: a failed entry rolls back alone.
        const events = prepareEvents(entry.events, newEventId);
        return { ok: true, result: append(entry.streamName, events, entry.expectedRevision) };
      } catch (error) {
        if (isPubstreamError(error) || error instanceof TypeError) return { ok: false, error };
        throw error;
      }
    }),
  );
  // Any failing entry throws out of the transaction: the whole batch rolls back.
  const appendEvery = db.transaction((batch: readonly StreamAppend[]) =>
    batch.map((entry) => append(entry.streamName, prepareEvents(entry.events, newEventId), entry.expectedRevision)),
  );

  return {
    readStream: (streamName) => selectStream.all(streamName).map(rowToRecordedEvent),
    readPage: (after, limit, until = Number.MAX_SAFE_INTEGER) => selectPage.all(after, until, limit).map(rowToRecordedEvent),
    headPosition: () => selectHeadPosition.get()?.head ?? 0,
    appendOne: (streamName, events, expectedRevision) => append.immediate(streamName, prepareEvents(events, newEventId), expectedRevision),
    appendEach: (batch) => appendEach.immediate(batch),
    appendAll: (batch) => appendEvery.immediate(batch),
  };
}
