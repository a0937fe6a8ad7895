export interface BackoffOptions {
  /** The first delay's upper bound. */
  readonly initialMs: number;
  /** No delay is longer than this (docs/projections.md: at most 2 s in the projector process). */
  readonly maxMs: number;
}

/**
 * The delay before retry `attempt` (1-based): doubling from `initialMs`, capped at `maxMs`, half of
 * it drawn at random ("equal jitter"), so processes that failed together do not retry in step.
 */
export const backoffDelay = (attempt: number, options: BackoffOptions, random: () => number = Math.random): number => {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base / 2 + (random() * base) / 2);
};
