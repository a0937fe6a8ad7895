import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { isPubstreamError } from '@pubstream/domain';
import { createChangeSignal } from './changeSignal.js';
import type { EventStore, EventSubscription, RecordedEvent, StreamAppendOutcome } from './eventStore.js';
import { startPollingSubscription } from './pollingSubscription.js';
import { prepareEvents } from './preparedEvent.js';
import { createSqliteAppender } from './sqliteAppender.js';
import { rowToRecordedEvent } from './sqliteEventRows.js';
import { ensureSqliteSchema, type EventRow } from './sqliteSchema.js';

export interface SqliteEventStoreOptions {
  readonly now?: () => Date;
  /** Id for events appended without one. */
  readonly newEventId?: () => string;
  /** Events per subscription delivery when the subscriber does not say (default 500). */
  readonly defaultBatchSize?: number;
  /** How often live subscriptions look for appends made by other processes (default 200 ms). */
  readonly pollIntervalMs?: number;
  /** Rows per page when iterating readAll (default 500). */
  readonly readPageSize?: number;
}

/**
 * The embedded event store: one SQLite table, positions from a global autoincrement sequence.
 * Every append is one IMMEDIATE transaction (the revision check and the inserts see the same
 * state, also across processes sharing the file). Appends in this process wake live subscribers
 * at once; appends by other processes are picked up by polling. close() stops the subscriptions
 * and closes `db`.
 */
export const createSqliteEventStore = (db: Database.Database, options: SqliteEventStoreOptions = {}): EventStore => {
  ensureSqliteSchema(db);
  const newEventId = options.newEventId ?? randomUUID;
  const pageSize = options.readPageSize ?? 500;
  const changes = createChangeSignal();
  const subscriptions = new Set<EventSubscription>();
  const append = db.transaction(createSqliteAppender(db, options.now ?? (() => new Date())));

  const selectStream = db.prepare<[string], EventRow>('SELECT * FROM events WHERE stream_name = ? ORDER BY revision');
  const selectPage = db.prepare<[number, number, number], EventRow>(
    'SELECT * FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?',
  );
  const selectHeadPosition = db.prepare<[], { head: number | null }>('SELECT MAX(position) AS head FROM events');
  const readPage = (after: number, limit: number, until = Number.MAX_SAFE_INTEGER): RecordedEvent[] =>
    selectPage.all(after, until, limit).map(rowToRecordedEvent);

  const appendBatch = db.transaction((batch: Parameters<EventStore['appendToStreams']>[0]): StreamAppendOutcome[] =>
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
  const appendEvery = db.transaction((batch: Parameters<EventStore['appendAll']>[0]) =>
    batch.map((entry) => append(entry.streamName, prepareEvents(entry.events, newEventId), entry.expectedRevision)),
  );

  return {
    async appendToStream(streamName, events, { expectedRevision }) {
      const result = append.immediate(streamName, prepareEvents(events, newEventId), expectedRevision);
      changes.notify();
      return result;
    },

    async appendToStreams(batch) {
      const outcomes = appendBatch.immediate(batch);
      changes.notify();
      return outcomes;
    },

    async appendAll(batch) {
      const results = appendEvery.immediate(batch);
      changes.notify();
      return results;
    },

    async readStream(streamName) {
      return selectStream.all(streamName).map(rowToRecordedEvent);
    },

    async *readAll(readOptions = {}) {
      let cursor = readOptions.after ?? 0;
      let remaining = readOptions.maxCount ?? Number.POSITIVE_INFINITY;
      while (remaining > 0) {
        const limit = Math.min(pageSize, remaining);
        const page = readPage(cursor, limit, readOptions.until);
        yield* page;
        const last = page.at(-1);
        if (!last || page.length < limit) return;
        remaining -= page.length;
        cursor = last.position;
      }
    },

    subscribeToAll(subscribeOptions, handler) {
      const subscription = startPollingSubscription(
        {
          after: subscribeOptions.after,
          batchSize: subscribeOptions.batchSize ?? options.defaultBatchSize ?? 500,
          pollIntervalMs: options.pollIntervalMs ?? 200,
          readBatch: (after, limit) => readPage(after, limit),
          changes,
        },
        handler,
      );
      subscriptions.add(subscription);
      void subscription.done.then(
        () => subscriptions.delete(subscription),
        () => subscriptions.delete(subscription),
      );
      return subscription;
    },

    async headPosition() {
      return selectHeadPosition.get()?.head ?? 0;
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      if (db.open) db.close();
    },
  };
};
