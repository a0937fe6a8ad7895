/** A running watch; stop() is idempotent. */
export interface DataVersionWatch {
  /** Something hinted at a write (a file event): check now and at the fast interval for a while. */
  nudge(): void;
  stop(): void;
}

export interface DataVersionWatchOptions {
  /** SQLite's `PRAGMA data_version` on this process's connection: it changes when another connection commits. */
  readonly readVersion: () => number;
  /** Called once per observed change. */
  readonly onChange: () => void;
  /** Between checks while the log is changing (within `activeForMs` of the last change). */
  readonly intervalMs: number;
  /** Between checks once the log has been quiet for `activeForMs` (default: intervalMs). */
  readonly idleIntervalMs?: number;
  /** How long after a change the watch keeps checking at the fast interval (default 1,000 ms). */
  readonly activeForMs?: number;
  /** Where a failed check goes (a closed or locked database); the watch keeps running. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Notices commits made by other processes to the same SQLite file by polling `PRAGMA data_version`:
 * one cheap pragma per tick, one timer per store however many subscriptions it has, and the log is
 * read only after it changed (docs/event-store.md, "Cross-process delivery"). It checks every
 * `intervalMs` while writes come in (or after a nudge) and every `idleIntervalMs` once the log is
 * quiet, which keeps an idle process's wake-ups few. The timer is unref'd: it never keeps a process alive by itself.
 */
export const watchDataVersion = (options: DataVersionWatchOptions): DataVersionWatch => {
  const idleIntervalMs = options.idleIntervalMs ?? options.intervalMs;
  const fastTicks = Math.ceil((options.activeForMs ?? 1_000) / options.intervalMs);
  let last = options.readVersion();
  let quietTicks = fastTicks;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = (): void => {
    try {
      const version = options.readVersion();
      quietTicks = version === last ? quietTicks + 1 : 0;
      if (version !== last) {
        last = version;
        options.onChange();
      }
    } catch (error) {
      options.onError?.(error);
    }
    schedule();
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(check, quietTicks < fastTicks ? options.intervalMs : idleIntervalMs);
    timer.unref();
  };
  schedule();
  return {
    nudge: () => {
      if (stopped) return;
      clearTimeout(timer);
      quietTicks = 0;
      check();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
};
