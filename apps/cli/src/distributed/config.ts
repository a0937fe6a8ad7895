/** Projector-process settings beyond the shared Config (libs/config). */
export interface ProjectorNodeOptions {
  /**
   * Lease time to live: a standby takes over at most about this long after the active projector
   * dies without releasing it (docs/distributed.md, takeover timing).
   */
  readonly leaseTtlMs: number;
  /**
   * Fault injection for crash tests only: the probability that the process exits (code 86) right
   * after a read-model write and before the matching publish to Kafka. 0 (default) = never.
   */
  readonly exitBeforePublishProbability: number;
}

/** 2 s: a kill -9 is taken over within the TTL plus a standby poll (ttl/10), under 3 s. */
export const DEFAULT_LEASE_TTL_MS = 2_000;

const number = (value: string | undefined, name: string, fallback: number, min: number, max: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || parsed > max) throw new Error(`Invalid configuration: ${name} must be a number between ${min} and ${max} (got "${value}")`);
  return parsed;
};

/** PROJECTOR_LEASE_TTL_MS (default 2000) and PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH (tests only, default 0). */
export const projectorNodeOptionsFromEnv = (env: Readonly<Record<string, string | undefined>>): ProjectorNodeOptions => ({
  leaseTtlMs: number(env.PROJECTOR_LEASE_TTL_MS, 'PROJECTOR_LEASE_TTL_MS', DEFAULT_LEASE_TTL_MS, 300, 600_000),
  exitBeforePublishProbability: number(env.PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH, 'PUBSTREAM_FAULT_EXIT_BEFORE_PUBLISH', 0, 0, 1),
});
