import type { Clock } from './clock.js';
import { nextRetryDelay, type RetryPolicy } from './retryPolicy.js';

/** Notified before each retry wait; handy for logging. */
export type RetryListener = (info: { error: unknown; attempt: number; delayMs: number }) => void;

/**
 * Runs `attempt` until it succeeds or fails with an error that {@link nextRetryDelay} will not retry.
 * The wait between attempts is aborted by `signal`, which then rejects with the signal's reason.
 */
export async function runWithRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  clock: Clock,
  signal?: AbortSignal,
  onRetry?: RetryListener,
): Promise<T> {
  const started = clock.now();
  for (let failures = 0; ; ) {
    signal?.throwIfAborted();
    try {
      return await attempt(failures + 1);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      failures += 1;
      const delayMs = nextRetryDelay(error, failures, clock.now() - started, policy, clock.random);
      if (delayMs === undefined) throw error;
      onRetry?.({ error, attempt: failures, delayMs });
      await clock.sleep(delayMs, signal);
    }
  }
}
