import type { LimiterDecision } from './rateLimiter.js';

/** A quota counter: the UTC calendar month it counts (year × 12 + month index) and its count. */
export interface MonthCount {
  readonly month: number;
  readonly count: number;
}

export interface MonthlyQuotaDecision extends LimiterDecision {
  readonly state: MonthCount;
}

/** The UTC calendar month of a Unix ms time, as year × 12 + month index (0 = January). */
export const monthOf = (ms: number): number => {
  const at = new Date(ms);
  return at.getUTCFullYear() * 12 + at.getUTCMonth();
};

/** Unix ms at which `month` (year × 12 + month index) ends: the first instant of the next one. */
export const monthEndMs = (month: number): number => Date.UTC(Math.floor((month + 1) / 12), (month + 1) % 12, 1);

/**
 * One request against `quota` requests per UTC calendar month. A counter of an earlier month
 * starts again from zero; a clock stepped back into the previous month keeps the current count.
 * Refused requests are not counted. The Redis script (rateLimitScripts.ts) decides the same way.
 */
export const decideMonthlyQuota = (state: MonthCount | undefined, nowMs: number, quota: number): MonthlyQuotaDecision => {
  const current = monthOf(nowMs);
  const month = state !== undefined && state.month >= current ? state.month : current;
  const used = state?.month === month ? state.count : 0;
  const allowed = used < quota;
  const count = allowed ? used + 1 : used;
  return { allowed, remaining: Math.max(0, quota - count), resetMs: monthEndMs(month), at: nowMs, state: { month, count } };
};
