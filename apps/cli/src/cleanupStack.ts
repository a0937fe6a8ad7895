/** Closes what a starting process opened, in reverse order. */
export interface CleanupStack {
  /** Registers what undoes the step just taken. */
  push(cleanup: () => Promise<void>): void;
  /**
   * Runs every registered cleanup once, the last registered first; a failing one is reported and
   * the rest still run. Calling it again returns the same promise.
   */
  stop(): Promise<void>;
}

/** Creates an empty {@link CleanupStack}; `onError` hears each cleanup that failed. */
export const createCleanupStack = (onError: (error: unknown) => void): CleanupStack => {
  const cleanups: (() => Promise<void>)[] = [];
  let stopping: Promise<void> | null = null;
  return {
    push: (cleanup) => void cleanups.push(cleanup),
    stop: () =>
      (stopping ??= (async () => {
        for (const cleanup of cleanups.splice(0).reverse()) {
          try {
            await cleanup();
          } catch (error) {
            onError(error);
          }
        }
      })()),
  };
};

/** Runs `start`; if it fails, stops whatever it had opened, then rethrows. */
export const startOrUndo = async <T>(stack: CleanupStack, start: () => Promise<T>): Promise<T> => {
  try {
    return await start();
  } catch (error) {
    await stack.stop();
    throw error;
  }
};
