/**
 * Runs until SIGTERM / SIGINT, then stops gracefully; a second signal exits at once. The process
 * exits within `timeoutMs` (SHUTDOWN_TIMEOUT_MS) of the signal whatever the stop is waiting for
 * (docs/operations.md, "Graceful shutdown"): code 0 when the stop finished, 1 when it was cut.
 */
export const runUntilSignal = (stop: () => Promise<void>, timeoutMs: number, log: (message: string) => void): void => {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: shutting down (stop accepting, drain, close)`);
    const timer = setTimeout(() => {
      log(`shutdown took longer than ${timeoutMs} ms: exiting`);
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
};
