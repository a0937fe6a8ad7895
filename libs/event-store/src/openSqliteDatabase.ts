import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { describeOpenFailure } from './eventLogOpenError.js';
import { ensureSqliteSchema } from './sqliteSchema.js';

export interface OpenSqliteDatabaseOptions {
  /** How long a writer waits for another connection's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
}

const isBusy = (error: unknown): boolean => String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Runs a setup statement, retrying while another process holds the lock. SQLite does not call its
 * busy handler for the switch to WAL, so processes opening a new log at the same moment would
 * otherwise fail with "database is locked" (docs/event-store.md, cold starts).
 */
const retryWhileBusy = <T>(action: () => T, timeoutMs: number): T => {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return action();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      sleepSync(Math.min(50, 2 ** attempt) + Math.random() * 5);
    }
  }
};

/**
 * Opens (creating folder and file if needed) a SQLite database set up for an event log:
 * WAL journal, `synchronous=FULL` (every commit is fsynced, so an acknowledged append survives a
 * crash or power loss), a busy timeout so several processes can share the file, and the event
 * table. Safe when several processes open a new file at the same moment. A corrupt or unreadable
 * file throws EventLogOpenError, whose message names the file and what to do.
 */
export const openSqliteDatabase = (path: string, options: OpenSqliteDatabaseOptions = {}): Database.Database => {
  const inMemory = path === ':memory:' || path === '';
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5_000));
  let db: Database.Database | null = null;
  try {
    if (!inMemory) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    const opened = db;
    opened.pragma(`busy_timeout = ${busyTimeoutMs}`);
    if (!inMemory) retryWhileBusy(() => opened.pragma('journal_mode = WAL'), busyTimeoutMs);
    opened.pragma('synchronous = FULL');
    retryWhileBusy(() => ensureSqliteSchema(opened), busyTimeoutMs);
    return opened;
  } catch (error) {
    db?.close();
    throw describeOpenFailure(path, error);
  }
};
