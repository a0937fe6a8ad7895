/** Reasons for which the server cut this client: repeated, they mean "slow down". */
export const CUT_REASONS: ReadonlySet<string> = new Set(['slow_consumer', 'resync_failed']);

/**
 * The wait before re-opening a stream the server ended with `reconnect {reason, retryAfterMs}`.
 * The server's hint is honoured (it is already jittered, and spreads a draining node's clients over
 * its shutdown window). A client cut again and again (`cuts` in a row, counted until a stream lives
 * to its `cycle`) backs off exponentially on top of it, with jitter, up to `maxMs`: a client that
 * cannot keep up does not loop, burning its key's rate limit.
 */
export function streamReconnectDelay(hintMs: number, cuts: number, options: { baseDelayMs: number; maxMs: number }, random: () => number): number {
  const hint = Math.max(0, hintMs);
  if (cuts <= 1) return hint;
  const ceiling = Math.min(options.maxMs, Math.max(hint, options.baseDelayMs) * 2 ** (cuts - 1));
  // "Equal jitter": at least half the ceiling, so repeated cuts really slow down.
  return Math.max(hint, Math.floor(ceiling / 2 + (random() * ceiling) / 2));
}
