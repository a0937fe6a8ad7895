/**
 * The rate limiter port: fixed windows aligned to the clock (the top of each minute or hour,
 * DESIGN.md §6) and an optional calendar-month quota (UTC). Adapters: memory and Redis.
 */
export type RateLimitWindow = 'minute' | 'hour';

export interface RateLimitResult {
  readonly allowed: boolean;
  /** Requests allowed per window (or per month for the quota). */
  readonly limit: number;
  /** Requests left in this window after this one (never negative). */
  readonly remaining: number;
  /** Unix time in seconds at which the window resets. */
  readonly resetAt: number;
}

export interface RateLimiter {
  /** Counts one request of `subject` (a key id) against `limit` requests per window. */
  consume(subject: string, limit: number): Promise<RateLimitResult>;
  /** Counts one request of `subject` against `quota` requests per UTC calendar month. */
  consumeMonthly(subject: string, quota: number): Promise<RateLimitResult>;
}

export const WINDOW_SECONDS: Readonly<Record<RateLimitWindow, number>> = { minute: 60, hour: 3_600 };

/** The current window of a clock-aligned fixed window: its id and its end (Unix seconds). */
export interface WindowSlot {
  readonly id: string;
  readonly resetAt: number;
}

export const windowSlot = (window: RateLimitWindow, at: Date): WindowSlot => {
  const size = WINDOW_SECONDS[window];
  const index = Math.floor(at.getTime() / 1000 / size);
  return { id: `${window[0]}${index}`, resetAt: (index + 1) * size };
};

export const monthSlot = (at: Date): WindowSlot => {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return {
    id: `M${year}-${String(month + 1).padStart(2, '0')}`,
    resetAt: Date.UTC(year, month + 1, 1) / 1000,
  };
};
