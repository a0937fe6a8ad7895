import type { ActivePeriodDeps } from './activePeriod.js';
import { PROJECTOR_LEASE, publishedCheckpointName } from './checkpointNames.js';
import type { SkippedEvent } from './decodeEvents.js';
import { DEFAULT_RESUME_WINDOW_MS } from './historyRecording.js';
import { createKeyHashResolver } from './keyHashResolver.js';
import { measureLag } from './lag.js';
import { leaseTimings, type LeaseOptions } from './leaseLoop.js';
import { silentLogger, type ProjectorLogger } from './projectorLogger.js';
import type { Projector, ProjectorDeps } from './projectorOptions.js';
import { runProjectorLoop } from './projectorLoop.js';
import { createProjectorProgress } from './projectorProgress.js';
import { PROJECTIONS } from './projections/index.js';

export { PROJECTOR_LEASE, publishedCheckpointName } from './checkpointNames.js';
export { silentLogger, type ProjectorLogger } from './projectorLogger.js';
export type { Projector, ProjectorDeps, ProjectorLeaseOptions, ProjectorSnapshot, ProjectorState, ProjectorStatus } from './projectorOptions.js';

const skipLogger = (logger: ProjectorLogger) => (skipped: SkippedEvent): void => {
  const log = skipped.reason === 'unknown-type' ? logger.debug : logger.warn;
  log.call(logger, { position: skipped.position, type: skipped.type, err: skipped.error }, `projector skipped a ${skipped.reason} event`);
};

const leaseOptionsOf = (deps: ProjectorDeps, logger: ProjectorLogger, now: () => Date): LeaseOptions | null => {
  if (!deps.lease) return null;
  const timings = leaseTimings(deps.lease.ttlMs);
  return { store: deps.stores.projections, name: PROJECTOR_LEASE, holder: deps.lease.holder, ttlMs: deps.lease.ttlMs, pollMs: deps.lease.pollMs ?? timings.pollMs, renewMs: timings.renewMs, now, logger };
};

const activePeriodDeps = (deps: ProjectorDeps, logger: ProjectorLogger, now: () => Date): ActivePeriodDeps => {
  const name = deps.name ?? 'projector';
  return {
    eventStore: deps.eventStore,
    stores: deps.stores,
    changeStream: deps.changeStream,
    projections: deps.projections ?? PROJECTIONS,
    keyHashes: createKeyHashResolver(deps.eventStore),
    names: { applied: name, published: publishedCheckpointName(name) },
    batchSize: deps.batchSize ?? 500,
    publishMaxBytes: deps.publishMaxBytes ?? 512 * 1024,
    retry: { initialMs: deps.retry?.initialMs ?? 200, maxMs: deps.retry?.maxMs ?? 2_000 },
    publishRetry: { initialMs: deps.publishRetry?.initialMs ?? 100, maxMs: deps.publishRetry?.maxMs ?? 2_000 },
    lease: leaseOptionsOf(deps, logger, now),
    progress: createProjectorProgress(now),
    logger,
    onSkip: skipLogger(logger),
    resumeWindowMs: deps.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS,
    now,
  };
};

/**
 * The projector (docs/projections.md): a lease loop (take the lease, keep it, lose it, release
 * it), and while it holds the lease a batch applier (log → projections → read model, advancing the
 * applied checkpoint) beside a publisher (its own published checkpoint; announces what was applied,
 * derived from the log). Applying never waits for publishing. Backend errors never crash it.
 */
export const createProjector = (deps: ProjectorDeps): Projector => {
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? (() => new Date());
  const period = activePeriodDeps(deps, logger, now);
  const { progress } = period;
  let loop: Promise<void> | null = null;
  let stopper = new AbortController();

  const storedCheckpoints = async (): Promise<[number, number]> => {
    if (progress.state === 'running') return [progress.applied.get(), progress.published];
    // A standby or stopped projector reports what the active one has stored; while the read
    // model is unreachable, what this one last knew.
    const checkpoints = deps.stores.projections;
    try {
      return await Promise.all([checkpoints.getCheckpoint(period.names.applied), checkpoints.getCheckpoint(period.names.published)]);
    } catch (err) {
      logger.warn({ err }, 'projector status: read model unreachable, reporting the last known checkpoints');
      return [progress.applied.get(), progress.published];
    }
  };

  return {
    start() {
      if (loop) return;
      stopper = new AbortController();
      loop = runProjectorLoop(period, stopper.signal).catch((err: unknown) => {
        // runLoop handles every error itself; this is a last line of defence, never a crash.
        logger.error({ err }, 'projector loop ended unexpectedly');
        progress.state = 'stopped';
      });
    },
    async stop() {
      if (!loop) return;
      stopper.abort();
      await loop;
      loop = null;
      progress.applied.settle();
    },
    async status() {
      const [applied, published] = await storedCheckpoints();
      const head = await deps.eventStore.headPosition();
      const lag = await measureLag(deps.eventStore, applied, head, now);
      return { name: period.names.applied, state: progress.state, applied, published, head, lagEvents: lag.events, lagSeconds: lag.seconds, eventsPerSecond: progress.rate.perSecond() };
    },
    snapshot: () => ({
      name: period.names.applied,
      state: progress.state,
      active: progress.holding && progress.state === 'running',
      applied: progress.applied.get(),
      published: progress.published,
      publisher: progress.publisher,
      eventsApplied: progress.eventsApplied,
      messagesPublished: progress.messagesPublished,
    }),
    waitFor: (position, timeoutMs) => progress.applied.reach(position, timeoutMs),
  };
};
