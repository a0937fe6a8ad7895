import { NetworkError, RateLimitedError, ServiceUnavailableError } from './errors.js';

/** How failed requests are retried. */
export interface RetryPolicy {
  /** Total attempts including the first one; 1 disables retries. Default 5. */
  maxAttempts: number;
  /** No retry starts once this much time has passed since the first attempt (or would pass during the wait). Default 60 000. */
  maxElapsedMs: number;
  /** Scale of the exponential backoff. Default 250. */
  baseDelayMs: number;
  /** Largest backoff step (a server-requested wait is honoured even when longer). Default 10 000. */
  maxDelayMs: number;
}

/** The defaults of {@link RetryPolicy}. */
export const defaultRetryPolicy: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  maxElapsedMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
});

/** Whether an error is worth another attempt: 429, 503 and network failures only. */
export function isRetryable(error: unknown): boolean {
  return error instanceof RateLimitedError || error instanceof ServiceUnavailableError || error instanceof NetworkError;
}

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(maxDelayMs, baseDelayMs · 2^(failures-1))).
 * `failures` counts the failed attempts so far (1 after the first failure).
 */
export function fullJitterDelay(failures: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt, or undefined when the request must not be retried (not retryable,
 * attempts used up, or the wait would end after `maxElapsedMs`). A 429 that names its wait
 * (`Retry-After` / `X-RateLimit-Reset`) waits at least that long, plus up to `baseDelayMs` of jitter so
 * that many clients do not return at the same instant.
 */
export function nextRetryDelay(
  error: unknown,
  failures: number,
  elapsedMs: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!isRetryable(error)) return undefined;
  if (failures >= policy.maxAttempts) return undefined;
  const serverWait = error instanceof RateLimitedError ? error.retryAfterMs : undefined;
  const delay =
    serverWait === undefined ? fullJitterDelay(failures, policy, random) : serverWait + Math.floor(random() * policy.baseDelayMs);
  if (elapsedMs + delay > policy.maxElapsedMs) return undefined;
  return delay;
}
