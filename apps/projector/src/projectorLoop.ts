import { runActivePeriod, type ActivePeriodDeps } from './activePeriod.js';
import { backoffDelay } from './backoff.js';
import { acquireLease } from './leaseLoop.js';
import { pause } from './pause.js';

/**
 * The projector's outer loop (docs/projections.md): stand by until the lease is ours (when there
 * is one), run an active period until it ends (lease lost: stand by again), until `stop` aborts.
 * An error before a period got going (read model unreachable) is retried with jittered backoff.
 */
export const runProjectorLoop = async (period: ActivePeriodDeps, stop: AbortSignal): Promise<void> => {
  const { progress, logger } = period;
  let attempt = 0;
  while (!stop.aborted) {
    try {
      if (period.lease) progress.state = 'waiting-for-lease';
      const lease = period.lease ? await acquireLease(period.lease, stop) : null;
      if (period.lease && !lease) break;
      await runActivePeriod(period, lease, stop);
      attempt = 0;
    } catch (err) {
      if (stop.aborted) break;
      attempt += 1;
      const delay = backoffDelay(attempt, period.retry);
      progress.state = 'retrying';
      logger.error({ err, attempt, retryInMs: delay }, 'projector could not start from its checkpoints; retrying');
      await pause(delay, stop);
    }
  }
  progress.state = 'stopped';
};
