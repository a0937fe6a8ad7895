/** The wait a 429 asks for, read from `Retry-After` first, else from `X-RateLimit-Reset`. */
export interface RateLimitTiming {
  resetAt: Date | undefined;
  retryAfterMs: number | undefined;
}

/**
 * Reads the rate-limit timing of a response. `Retry-After` is seconds or an HTTP date;
 * `X-RateLimit-Reset` is the Unix time in seconds at which the window resets.
 */
export function readRateLimitTiming(headers: Headers, nowMs: number): RateLimitTiming {
  const reset = parseResetHeader(headers.get('x-ratelimit-reset'));
  const retryAfter = parseRetryAfter(headers.get('retry-after'), nowMs);
  const resetAt = reset ?? (retryAfter === undefined ? undefined : new Date(nowMs + retryAfter));
  let retryAfterMs = retryAfter;
  if (retryAfterMs === undefined && reset !== undefined) retryAfterMs = Math.max(0, reset.getTime() - nowMs);
  return { resetAt, retryAfterMs };
}

function parseResetHeader(value: string | null): Date | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  // The specification calls it "timestamp-like": accept seconds, and milliseconds if a server sends them.
  return new Date(n < 1e12 ? n * 1000 : n);
}

function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
