import { NetworkError, type PubstreamError, UnauthorizedError } from './errors.js';
import type { StreamEventLike } from './eventSourceResolver.js';
import { fullJitterDelay, type RetryPolicy } from './retryPolicy.js';
import { fatalStreamError } from './streamFrames.js';
import { CUT_REASONS, streamReconnectDelay } from './streamBackoff.js';
import type { ReconnectEvent } from './types.js';

/**
 * What to do when a stream ends: stop until the watched set changes (the server refused it),
 * re-open at once, or re-open after `delayMs`. `cuts` and `failures` are the new counts.
 */
export type ReconnectPlan =
  | { action: 'refused'; error: PubstreamError }
  | { action: 'now'; cuts: number }
  | { action: 'wait'; cuts: number; delayMs: number };

/** Timing inputs of the plans. */
export interface ReconnectTiming {
  retry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
  debounceMs: number;
  maxCutBackoffMs: number;
  random: () => number;
}

/**
 * After the server's `reconnect` event (`cuts`: server cuts in a row so far). A `cycle` (or a
 * payload that cannot be read) re-opens at once and resets the cuts; a revoked key stops; other
 * reasons wait as the server asks (a draining node spreads its clients over a window), longer
 * after repeated cuts. The new stream always starts with a fresh snapshot.
 */
export function planAfterReconnect(payload: ReconnectEvent | undefined, cuts: number, timing: ReconnectTiming): ReconnectPlan {
  if (payload?.reason === 'key_revoked') return { action: 'refused', error: new UnauthorizedError(401, 'Unauthorized', 'The API key was revoked') };
  if (!payload || payload.reason === 'cycle') return { action: 'now', cuts: 0 };
  const nextCuts = CUT_REASONS.has(payload.reason) ? cuts + 1 : cuts;
  const hint = typeof payload.retryAfterMs === 'number' && Number.isFinite(payload.retryAfterMs) ? payload.retryAfterMs : 0;
  const delayMs = streamReconnectDelay(hint, nextCuts, { baseDelayMs: timing.retry.baseDelayMs, maxMs: timing.maxCutBackoffMs }, timing.random);
  return { action: 'wait', cuts: nextCuts, delayMs };
}

/** The plan after a stream error, with the error to report. */
export type FailurePlan = { action: 'refused'; error: PubstreamError } | { action: 'wait'; failures: number; delayMs: number; error: PubstreamError };

/**
 * After a stream `error` (`failures`: network failures since the last `connected`). A refusal
 * (400/401/403/404) cannot be fixed by retrying; anything else is network loss, retried with
 * exponential backoff and full jitter, never sooner than the debounce.
 */
export function planAfterFailure(event: StreamEventLike, failures: number, timing: ReconnectTiming): FailurePlan {
  const fatal = fatalStreamError(event);
  if (fatal) return { action: 'refused', error: fatal };
  const nextFailures = failures + 1;
  const error = new NetworkError(`Stream interrupted${event.message ? `: ${event.message}` : ''}; reconnecting`);
  const delayMs = Math.max(timing.debounceMs, fullJitterDelay(nextFailures, timing.retry, timing.random));
  return { action: 'wait', failures: nextFailures, delayMs, error };
}
