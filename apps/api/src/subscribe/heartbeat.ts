/**
 * Runs `beat` every `intervalMs` (the `: ping` comment of every live stream, docs/subscriptions.md,
 * "The stream"); the timer never keeps the process alive. Returns the stop.
 */
export const startHeartbeat = (intervalMs: number, beat: () => void): (() => void) => {
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
