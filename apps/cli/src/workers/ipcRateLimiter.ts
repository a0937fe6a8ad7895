import type { RateLimiter, RateLimitResult } from '@pubstream/access';
import type { IpcClient, IpcHandlers } from './workerIpc.js';

/**
 * A worker's rate limiter: every decision is the primary's one limiter, so a limit of N admits
 * exactly N across all workers (docs/decisions.md, "API workers"). Calls are batched per turn and
 * bounded: no answer in time is a 503 with Retry-After, never a hang and never a guess.
 */
export const createIpcRateLimiter = (primary: IpcClient): RateLimiter => ({
  consume: (subject, limit) => primary.call<RateLimitResult>('rateLimit.consume', [subject, limit]),
  consumeMonthly: (subject, quota) => primary.call<RateLimitResult>('rateLimit.consumeMonthly', [subject, quota]),
});

/** The primary's side: the workers' calls answered by its limiter. */
export const rateLimiterHandlers = (limiter: RateLimiter): IpcHandlers => ({
  'rateLimit.consume': (subject: string, limit: number) => limiter.consume(subject, limit),
  'rateLimit.consumeMonthly': (subject: string, quota: number) => limiter.consumeMonthly(subject, quota),
});
