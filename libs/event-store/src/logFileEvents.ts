import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Calls `onEvent` when the file system reports a change to the SQLite file or its `-wal`/`-shm`
 * companions (inotify on Linux): a hint that another process may have committed, so the
 * data_version watch checks at once instead of at its next idle tick. Where the platform cannot
 * watch (no inotify, too many watches), returns a no-op and the polling alone delivers.
 * Watches the folder, not the file: SQLite deletes and recreates the `-wal` file.
 */
export const watchLogFileEvents = (path: string, onEvent: () => void): { close(): void } => {
  const name = basename(path);
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      if (file === null || String(file).startsWith(name)) onEvent();
    });
  } catch {
    return { close: () => undefined };
  }
  watcher.on('error', () => watcher.close());
  return { close: () => watcher.close() };
};
