import { z } from 'zod';

export const planNameSchema = z.enum(['free', 'pro', 'business', 'enterprise']);
export type PlanName = z.infer<typeof planNameSchema>;

export interface PlanLimits {
  readonly name: PlanName;
  /** Requests per rate window given to a new key when none is asked for. */
  readonly defaultRateLimit: number;
  /** Highest rate limit a key may be configured with. */
  readonly maxRateLimit: number;
  /** Reactive mode: live subscriptions over /subscribe. */
  readonly reactive: boolean;
  /** Concurrent /subscribe streams per key (0 when the plan has no reactive mode). */
  readonly maxStreamsPerKey: number;
}

/**
 * Free, Pro and Enterprise come from the specification; Business is not given there and is
 * assumed between Pro and Enterprise (docs/decisions.md, "Business plan").
 */
export const PLANS: Readonly<Record<PlanName, PlanLimits>> = Object.freeze({
  free: { name: 'free', defaultRateLimit: 100, maxRateLimit: 100, reactive: false, maxStreamsPerKey: 0 },
  pro: { name: 'pro', defaultRateLimit: 1_000, maxRateLimit: 10_000, reactive: false, maxStreamsPerKey: 0 },
  business: { name: 'business', defaultRateLimit: 5_000, maxRateLimit: 50_000, reactive: true, maxStreamsPerKey: 1_000 },
  enterprise: { name: 'enterprise', defaultRateLimit: 10_000, maxRateLimit: 100_000, reactive: true, maxStreamsPerKey: 10_000 },
});

/** The plan a new deployment starts on, until an operator changes it. */
export const DEFAULT_PLAN: PlanName = 'business';
