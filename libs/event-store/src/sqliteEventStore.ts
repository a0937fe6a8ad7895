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
import { watchOtherWriters } from './otherWritersWatch.js';

export interface SqliteEventStoreOptions {
  readonly now?: () => Date;
  /** Id for events appended without one. */
  readonly newEventId?: () => string;
  /** Events per subscription delivery when the subscriber does not say (default 500). */
  readonly defaultBatchSize?: number;
  /**
   * How often live subscriptions look for appends made by other processes while the log is busy
   * (default 5 ms): one `PRAGMA data_version` per tick for the whole store; the log is read only
   * when it changed.
   */
  readonly pollIntervalMs?: number;
  /** The same once no other process has written for a second (default 50 ms); file events (inotify) wake it sooner. */
  readonly idlePollIntervalMs?: number;
  /** Watch for other processes' appends (default true); false leaves only the fallback read (benchmarks). */
  readonly watchOtherProcesses?: boolean;
  /** A full read of the log after this long without any wake-up, in case a change went unseen (default 1,000 ms). */
  readonly fallbackReadMs?: number;
  /** Rows per page when iterating readAll (default 500). */
  readonly readPageSize?: number;
}

/**
 * The embedded event store: one SQLite table, positions from a global autoincrement sequence.
 * Every append is one IMMEDIATE transaction (the revision check and the inserts see the same
 * state, also across processes sharing the file). Appends in this process wake live subscribers
 * at once; appends by other processes are noticed by polling `PRAGMA data_version` every few
 * milliseconds while a subscription is live (docs/event-store.md, "Cross-process delivery").
 * close() stops the subscriptions and closes `db`.
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
  // Only a file can be written by another connection; one watch serves every subscription.
  let otherWriters: { stop(): void } | null = null;
  const followOtherWriters = (): void => {
    if (otherWriters !== null || db.memory || options.watchOtherProcesses === false) return;
    const intervalMs = options.pollIntervalMs ?? 5;
    otherWriters = watchOtherWriters(db, () => changes.notify(), { intervalMs, idleIntervalMs: options.idlePollIntervalMs ?? Math.max(intervalMs, 50) });
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
        pollIntervalMs: options.fallbackReadMs ?? 1_000,
        readBatch: (after: number, limit: number) => sql.readPage(after, limit),
        changes,
      };
      followOtherWriters();
      return subscriptions.track(startPollingSubscription(source, handler));
    },
    headPosition: async () => busyAsUnavailable(sql.headPosition)(),
    async close() {
      otherWriters?.stop();
      await subscriptions.closeAll();
      if (db.open) db.close();
    },
  };
};
