import type Database from 'better-sqlite3';
import { watchDataVersion } from './dataVersionWatch.js';
import { watchLogFileEvents } from './logFileEvents.js';

export interface OtherWritersWatchOptions {
  /** Between `PRAGMA data_version` checks while other processes write. */
  readonly intervalMs: number;
  /** The same once they have been quiet for a second. */
  readonly idleIntervalMs: number;
}

/**
 * Calls `onChange` when another connection (another process) commits to the file of `db`: the
 * data_version watch, nudged by file events on the log (docs/event-store.md, "Cross-process
 * delivery"). stop() ends both.
 */
export const watchOtherWriters = (db: Database.Database, onChange: () => void, options: OtherWritersWatchOptions): { stop(): void } => {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const watch = watchDataVersion({ readVersion: () => dataVersion.get() ?? 0, onChange, intervalMs: options.intervalMs, idleIntervalMs: options.idleIntervalMs });
  const fileEvents = watchLogFileEvents(db.name, watch.nudge);
  return {
    stop: () => {
      watch.stop();
      fileEvents.close();
    },
  };
};
