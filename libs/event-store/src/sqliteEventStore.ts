import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { createChangeSignal } from './changeSignal.js';
import type { EventStore } from './eventStore.js';
import { readAllInPages } from './pagedReadAll.js';
import { startPollingSubscription } from './pollingSubscription.js';
import { busyAsUnavailable } from './sqliteBusy.js';
import { prepareSqliteStatements } from './sqliteStatements.js';
import { ensureSqliteSchema } from './sqliteSchema.js';
import { createSubscriptionSet } from './subscriptionSet.js';

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
  const sql = prepareSqliteStatements(db, options.now ?? (() => new Date()), options.newEventId ?? randomUUID);
  const pageSize = options.readPageSize ?? 500;
  const changes = createChangeSignal();
  const subscriptions = createSubscriptionSet();
  // Every append wakes this process's live subscribers at once; a lock held too long by another
  // process is a 503, not a fault (the busy timeout bounds the wait).
  const notifying =
    <A extends unknown[], R>(write: (...args: A) => R) =>
    async (...args: A): Promise<R> => {
      const result = busyAsUnavailable(write)(...args);
      changes.notify();
      return result;
    };

  return {
    appendToStream: notifying((streamName, events, { expectedRevision }) => sql.appendOne(streamName, events, expectedRevision)),
    appendToStreams: notifying(sql.appendEach),
    appendAll: notifying(sql.appendAll),
    readStream: async (streamName) => busyAsUnavailable(sql.readStream)(streamName),
    async *readAll(readOptions = {}) {
      yield* readAllInPages(sql.readPage, pageSize, readOptions);
    },
    subscribeToAll(subscribeOptions, handler) {
      const source = {
        after: subscribeOptions.after,
        batchSize: subscribeOptions.batchSize ?? options.defaultBatchSize ?? 500,
        pollIntervalMs: options.pollIntervalMs ?? 200,
        readBatch: (after: number, limit: number) => sql.readPage(after, limit),
        changes,
      };
      return subscriptions.track(startPollingSubscription(source, handler));
    },
    headPosition: async () => busyAsUnavailable(sql.headPosition)(),
    async close() {
      await subscriptions.closeAll();
      if (db.open) db.close();
    },
  };
};
