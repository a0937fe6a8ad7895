/**
 * Tells waiting subscribers that the log may have grown. `version` lets a waiter notice a change
 * that happened between its last read and the moment it starts waiting, so no wake-up is lost.
 */
export interface ChangeSignal {
  readonly version: number;
  notify(): void;
  /** Resolves at the first change after `seenVersion`, after `timeoutMs`, or when `stop` resolves. */
  waitForChange(seenVersion: number, timeoutMs: number, stop: Promise<void>): Promise<void>;
}

export const createChangeSignal = (): ChangeSignal => {
  let version = 0;
  const waiters = new Set<() => void>();
  return {
    get version() {
      return version;
    },
    notify() {
      version += 1;
      for (const wake of [...waiters]) wake();
    },
    waitForChange(seenVersion, timeoutMs, stop) {
      if (version !== seenVersion) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          waiters.delete(finish);
          resolve();
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.add(finish);
        void stop.then(finish);
      });
    },
  };
};
