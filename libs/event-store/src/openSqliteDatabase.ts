import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export interface OpenSqliteDatabaseOptions {
  /** How long a writer waits for another connection's lock before failing (ms). */
  readonly busyTimeoutMs?: number;
}

/**
 * Opens (creating folder and file if needed) a SQLite database set up for an event log:
 * WAL journal, `synchronous=FULL` (every commit is fsynced, so an acknowledged append survives a
 * crash or power loss) and a busy timeout so several processes can share the file.
 */
export const openSqliteDatabase = (path: string, options: OpenSqliteDatabaseOptions = {}): Database.Database => {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5_000))}`);
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
};
