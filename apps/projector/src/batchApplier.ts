import type { EventStore, RecordedEvent } from '@pubstream/event-store';
import { FencedError, type Lease } from '@pubstream/read-model';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { decodeEvents, type SkippedEvent } from './decodeEvents.js';
import { pause } from './pause.js';
import type { PositionWatch } from './positionWatch.js';
import { projectBatch } from './projectBatch.js';
import type { ProjectorLogger } from './projectorLogger.js';
import type { ProjectorStores } from './projectorStores.js';
import type { ProjectedEvent, Projection } from './projections/projection.js';
import { historyRecordingFor } from './historyRecording.js';
import type { AppliedBatch } from './recentBatches.js';

export interface BatchApplierDeps {
  readonly eventStore: Pick<EventStore, 'subscribeToAll'>;
  readonly stores: ProjectorStores;
  readonly projections: readonly Projection[];
  /** The applied checkpoint's name. */
  readonly checkpoint: string;
  readonly batchSize: number;
  /** Every write carries it; null in the embedded profile. */
  readonly lease: Lease | null;
  /** RESUME_WINDOW: how long the change history keeps each change. */
  readonly resumeWindowMs: number;
  readonly now: () => Date;
  /** Where it starts, and what it advances after each batch is stored. */
  readonly applied: PositionWatch;
  readonly retry: BackoffOptions;
  readonly logger: ProjectorLogger;
  readonly onSkip: (skipped: SkippedEvent) => void;
  /** After each stored batch: how many events it held, and the batch itself (decoded). */
  readonly onBatch: (events: number, batch: AppliedBatch) => void;
  /** 'running' while it follows the log, 'retrying' while it waits after a backend error. */
  readonly onState: (state: 'running' | 'retrying') => void;
}

class ApplierStopped extends Error {}

/**
 * One batch: the projections fold the events over the records they touch, then the ops are
 * stored with the checkpoint (and the lease, and the change history) in one `apply`. Returns the batch's last position
 * and its decoded events.
 */
export const applyBatch = async (deps: BatchApplierDeps, recorded: readonly RecordedEvent[]): Promise<{ position: number; events: ProjectedEvent[] } | null> => {
  const last = recorded.at(-1);
  if (!last) return null;
  const events = decodeEvents(recorded, deps.onSkip);
  const ops = await projectBatch(deps.projections, deps.stores, events);
  const history = historyRecordingFor(last, deps.now(), deps.resumeWindowMs);
  await deps.stores.projections.apply(
    ops.map((o) => o.op),
    { projection: deps.checkpoint, position: last.position },
    { ...(deps.lease ? { lease: deps.lease } : {}), ...(history ? { history } : {}) },
  );
  return { position: last.position, events };
};

const aborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/**
 * The applier (docs/projections.md): follows the log from the applied position and stores batch
 * after batch, whatever the change stream does, until `signal` aborts. A backend error stops the
 * subscription; it waits (jittered backoff) and follows again from the last stored batch. A
 * FencedError is rethrown: the lease is gone and the caller goes back to standby.
 */
export const runBatchApplier = async (deps: BatchApplierDeps, signal: AbortSignal): Promise<void> => {
  let attempt = 0;
  while (!signal.aborted) {
    const handle = async (recorded: RecordedEvent[]): Promise<void> => {
      if (signal.aborted) throw new ApplierStopped();
      const after = deps.applied.get();
      const stored = await applyBatch(deps, recorded);
      if (stored === null) return;
      deps.applied.advance(stored.position);
      deps.onBatch(recorded.length, { after, to: stored.position, events: stored.events });
      attempt = 0;
      deps.onState('running');
    };
    const subscription = deps.eventStore.subscribeToAll({ after: deps.applied.get(), batchSize: deps.batchSize }, handle);
    deps.onState('running');
    try {
      await Promise.race([subscription.done, aborted(signal)]);
      // A subscription that ended by itself is followed again, after a breath.
      if (!signal.aborted) await pause(deps.retry.initialMs, signal);
    } catch (err) {
      if (err instanceof FencedError) throw err;
      if (signal.aborted || err instanceof ApplierStopped) break;
      attempt += 1;
      const delay = backoffDelay(attempt, deps.retry);
      deps.onState('retrying');
      deps.logger.error({ err, attempt, retryInMs: delay, applied: deps.applied.get() }, 'projector stopped on a backend error; retrying from its checkpoint');
      await pause(delay, signal);
    } finally {
      await subscription.close().catch(() => {});
    }
  }
};
