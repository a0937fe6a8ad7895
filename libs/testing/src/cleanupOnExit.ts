const cleanups = new Set<() => void>();
let installed = false;

const runAll = () => {
  for (const cleanup of [...cleanups]) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch {
      // Best effort: the process is going away.
    }
  }
};

const onSignal = (signal: NodeJS.Signals) => {
  runAll();
  process.off(signal, onSignal);
  // Nobody else handles it: die of the signal as the default would have.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
};

/**
 * Runs `cleanup` (synchronous) when the process exits or is interrupted (SIGINT, SIGTERM, SIGHUP)
 * before the normal teardown, so a Ctrl-C during a test run leaves no Redis or Kafka behind.
 * Returns the function that unregisters it, for the normal teardown.
 */
export const cleanupOnExit = (cleanup: () => void): (() => void) => {
  if (!installed) {
    installed = true;
    process.once('exit', runAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  }
  cleanups.add(cleanup);
  return () => void cleanups.delete(cleanup);
};
