import type { ChangeStream } from '@pubstream/change-stream';
import type { EventStore } from '@pubstream/event-store';
import { FencedError, type Lease } from '@pubstream/read-model';
import type { BackoffOptions } from './backoff.js';
import { runBatchApplier } from './batchApplier.js';
import { runPublisher } from './changePublisher.js';
import type { SkippedEvent } from './decodeEvents.js';
import type { KeyHashResolver } from './keyHashResolver.js';
import { keepLease, releaseLease, type LeaseOptions } from './leaseLoop.js';
import type { ProjectorLogger } from './projectorLogger.js';
import type { ProjectorProgress } from './projectorProgress.js';
import type { ProjectorStores } from './projectorStores.js';
import type { Projection } from './projections/projection.js';
import type { AppliedBatch } from './recentBatches.js';

/** Everything an active period needs, fixed for the projector's lifetime. */
export interface ActivePeriodDeps {
  readonly eventStore: EventStore;
  readonly stores: ProjectorStores;
  readonly changeStream: ChangeStream;
  readonly projections: readonly Projection[];
  readonly keyHashes: KeyHashResolver;
  readonly names: { readonly applied: string; readonly published: string };
  readonly batchSize: number;
  readonly publishMaxBytes: number;
  readonly retry: BackoffOptions;
  readonly publishRetry: BackoffOptions;
  /** Null in the embedded profile (no lease). */
  readonly lease: LeaseOptions | null;
  readonly progress: ProjectorProgress;
  readonly logger: ProjectorLogger;
  readonly onSkip: (skipped: SkippedEvent) => void;
  readonly resumeWindowMs: number;
  readonly now: () => Date;
}

/**
 * One active period (docs/projections.md): from the stored checkpoints, the applier and the
 * publisher run side by side while the lease is kept, until `stop` aborts or the lease is lost (a
 * renewal or a fenced write says so). Then both end, and a lease still held is released at once.
 * A backend error before both started is thrown to the caller, which retries.
 */
export const runActivePeriod = async (deps: ActivePeriodDeps, lease: Lease | null, stop: AbortSignal): Promise<void> => {
  const { progress, stores, logger } = deps;
  const period = new AbortController();
  const end = (): void => period.abort();
  stop.addEventListener('abort', end, { once: true });
  let lost = false;
  const onLost = (): void => {
    lost = true;
    progress.holding = false;
    end();
  };
  const stopKeeping = lease && deps.lease ? keepLease(deps.lease, lease, onLost) : () => {};
  const fenced = (err: unknown): void => {
    if (!(err instanceof FencedError)) throw err;
    logger.warn({ err }, 'projector fenced off: going back to standby');
    onLost();
  };
  try {
    progress.state = 'starting';
    progress.holding = true;
    const [applied, published] = await Promise.all([stores.projections.getCheckpoint(deps.names.applied), stores.projections.getCheckpoint(deps.names.published)]);
    progress.applied.reset(applied);
    progress.published = published;
    progress.recent.clear();
    logger.info({ applied, published }, 'projector following the event store');
    const publisher = runPublisher(publisherDeps(deps, lease), published, period.signal).catch(fenced);
    try {
      await runBatchApplier(applierDeps(deps, lease), period.signal).catch(fenced);
    } finally {
      end();
      await publisher;
    }
  } finally {
    stopKeeping();
    stop.removeEventListener('abort', end);
    progress.holding = false;
    if (lease && !lost && deps.lease) await releaseLease(deps.lease, lease);
  }
};

const applierDeps = (deps: ActivePeriodDeps, lease: Lease | null) => ({
  eventStore: deps.eventStore,
  stores: deps.stores,
  projections: deps.projections,
  checkpoint: deps.names.applied,
  batchSize: deps.batchSize,
  lease,
  resumeWindowMs: deps.resumeWindowMs,
  now: deps.now,
  applied: deps.progress.applied,
  retry: deps.retry,
  logger: deps.logger,
  onSkip: deps.onSkip,
  onBatch: (events: number, batch: AppliedBatch) => {
    deps.progress.eventsApplied += events;
    deps.progress.rate.record(events);
    deps.progress.recent.add(batch);
  },
  onState: (state: 'running' | 'retrying') => {
    deps.progress.state = state;
  },
});

const publisherDeps = (deps: ActivePeriodDeps, lease: Lease | null) => ({
  eventStore: deps.eventStore,
  store: deps.stores.projections,
  changeStream: deps.changeStream,
  keyHashes: deps.keyHashes,
  checkpoint: deps.names.published,
  batchSize: deps.batchSize,
  maxBytes: deps.publishMaxBytes,
  lease,
  applied: deps.progress.applied,
  recent: deps.progress.recent,
  retry: deps.publishRetry,
  logger: deps.logger,
  onSkip: () => {},
  onPublished: (position: number, messages: number) => {
    deps.progress.published = position;
    deps.progress.messagesPublished += messages;
  },
  onState: (state: 'idle' | 'publishing' | 'retrying') => {
    deps.progress.publisher = state;
  },
});
