import type Database from 'better-sqlite3';

/**
 * One table is the whole log. `position` is the rowid with AUTOINCREMENT: a global sequence that
 * never goes back, and since a failed or rolled-back append also rolls back the sequence, positions
 * stay contiguous. `(stream_name, revision)` is unique, so two writers can never both take a revision.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id    TEXT    NOT NULL UNIQUE,
  stream_name TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at INTEGER NOT NULL,
  UNIQUE (stream_name, revision)
);
`;

/** Creates the event table when missing; safe to run from several processes at once. */
export const ensureSqliteSchema = (db: Database.Database): void => {
  db.transaction(() => db.exec(SCHEMA)).immediate();
};

export interface EventRow {
  position: number;
  event_id: string;
  stream_name: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: number;
}
