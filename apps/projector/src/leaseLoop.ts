import type { Lease, ProjectionStore } from '@pubstream/read-model';
import { pause } from './pause.js';
import type { ProjectorLogger } from './projectorLogger.js';

export interface LeaseOptions {
  readonly store: Pick<ProjectionStore, 'acquireLease' | 'renewLease' | 'releaseLease'>;
  readonly name: string;
  /** Who we are: unique per process (docs/distributed.md); fencing compares it with the token. */
  readonly holder: string;
  readonly ttlMs: number;
  /** How often a standby tries to take the lease. */
  readonly pollMs: number;
  /** How often the holder renews it. */
  readonly renewMs: number;
  readonly now: () => Date;
  readonly logger: ProjectorLogger;
}

/**
 * Poll and renew intervals for a lease TTL (docs/distributed.md, takeover timing). A standby polls
 * often (ttl/10, 50–250 ms), so that a released lease is taken within a poll and an expired one
 * soon after its expiry; the holder renews every ttl/4, so that a holder whose lease was taken over
 * or wiped learns it within ttl/4 even when it has nothing to write.
 */
export const leaseTimings = (ttlMs: number): { pollMs: number; renewMs: number } => ({
  pollMs: Math.min(250, Math.max(50, Math.floor(ttlMs / 10))),
  renewMs: Math.max(10, Math.floor(ttlMs / 4)),
});

/** Polls until the lease is ours; null when `signal` aborts first. */
export const acquireLease = async (options: LeaseOptions, signal: AbortSignal): Promise<Lease | null> => {
  const { store, logger } = options;
  let logged = false;
  while (!signal.aborted) {
    try {
      const lease = await store.acquireLease(options.name, options.holder, options.ttlMs);
      if (lease) {
        logger.info({ holder: lease.holder, token: lease.token }, 'projector lease acquired: this projector is active');
        return lease;
      }
      if (!logged) logger.info({ holder: options.holder }, 'projector standing by: another projector holds the lease');
      logged = true;
    } catch (err) {
      logger.error({ err }, 'projector could not reach the read model to take the lease');
    }
    await pause(options.pollMs, signal);
  }
  return null;
};

/**
 * Renews the lease every `renewMs` until the returned function is called. Calls `onLost` once when
 * a renewal says the lease is gone (taken over, expired, wiped), or when renewals have failed
 * (read model unreachable) for the TTL since the last renewal that was sent and accepted: from
 * then on another projector may legitimately hold it.
 */
export const keepLease = (options: LeaseOptions, lease: Lease, onLost: (reason: string) => void): (() => void) => {
  const { store, logger, now } = options;
  let validSince = now().getTime();
  let renewing = false;
  let lost = false;
  const lose = (reason: string): void => {
    if (lost) return;
    lost = true;
    clearInterval(timer);
    logger.warn({ token: lease.token, reason }, 'projector lease lost: stopping writes');
    onLost(reason);
  };
  const renew = async (): Promise<void> => {
    const sentAt = now().getTime();
    try {
      if (await store.renewLease(lease, options.ttlMs)) validSince = sentAt;
      else lose('the lease was taken over, expired or wiped');
    } catch (err) {
      logger.warn({ err }, 'projector lease renewal failed');
      if (now().getTime() - validSince >= options.ttlMs) lose('renewals failed for longer than the lease TTL');
    }
  };
  const timer = setInterval(() => {
    if (renewing || lost) return;
    renewing = true;
    void renew().finally(() => {
      renewing = false;
    });
  }, options.renewMs);
  return () => {
    lost = true;
    clearInterval(timer);
  };
};

/** Gives the lease up at once (a graceful stop): the standby takes it at its next poll. */
export const releaseLease = async (options: LeaseOptions, lease: Lease): Promise<void> => {
  try {
    await options.store.releaseLease(lease);
    options.logger.info({ token: lease.token }, 'projector lease released');
  } catch (err) {
    options.logger.warn({ err }, 'projector could not release its lease; it expires after its TTL');
  }
};
