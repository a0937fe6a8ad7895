/** A wait that can be cut short, so a closing subscription does not sit out its backoff. */
export interface CancellablePause {
  /** Resolves after `ms`, or at once when {@link CancellablePause.stop} is called meanwhile. */
  wait(ms: number): Promise<void>;
  /** Ends the current wait, if any. */
  stop(): void;
}

/** Creates a {@link CancellablePause}. */
export function createCancellablePause(): CancellablePause {
  let stopWaiting = (): void => undefined;
  return {
    wait: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        stopWaiting = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    stop: () => stopWaiting(),
  };
}
