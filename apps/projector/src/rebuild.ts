import type { EventStore, RecordedEvent } from '@pubstream/event-store';
import { compareReadModels, type ComparedStores, type ReadModelDifference } from './compareReadModels.js';
import { decodeEvents } from './decodeEvents.js';
import { DEFAULT_RESUME_WINDOW_MS, historyRecordingFor } from './historyRecording.js';
import { projectBatch } from './projectBatch.js';
import { publishedCheckpointName } from './checkpointNames.js';
import type { ProjectorStores } from './projectorStores.js';
import { PROJECTIONS, type Projection } from './projections/index.js';
import { createRebuildMeter, type RebuildMeter } from './rebuildMeter.js';
import type { ProgressReporter } from './rebuildProgress.js';

export interface RebuildOptions {
  readonly eventStore: EventStore;
  /**
   * The new generation to build into (Redis stores under a new namespace, fresh memory stores).
   * Its own checkpoint makes the rebuild resumable: run it again on the same target after a
   * crash and it continues where it stopped.
   */
  readonly target: ProjectorStores & ComparedStores;
  /** The live stores, for `dryRun` comparison. */
  readonly live?: ComparedStores;
  /** Compare the rebuilt generation with `live` and report the differences. */
  readonly dryRun?: boolean;
  /** Only these projections (by name); all of the registry by default. */
  readonly only?: readonly string[];
  readonly projections?: readonly Projection[];
  /**
   * The checkpoint written in the target; `projector` by default, so that once the target is
   * switched live the projector continues from where the rebuild stopped.
   */
  readonly checkpointName?: string;
  readonly batchSize?: number;
  readonly progress?: ProgressReporter;
  /** Minimum time between progress updates (default 500 ms). */
  readonly progressEveryMs?: number;
  readonly now?: () => Date;
  /** RESUME_WINDOW: the rebuilt generation gets the history of this window from the log. Default 24 h. */
  readonly resumeWindowMs?: number;
  /** Stops between batches; the checkpoint keeps what was done. */
  readonly signal?: AbortSignal;
}

export interface RebuildResult {
  /** Position the target has reached (the log head when the rebuild caught up). */
  readonly position: number;
  /** Position this run resumed from (0 for a fresh target). */
  readonly resumedFrom: number;
  /** Events read in this run. */
  readonly events: number;
  readonly eventsPerSecond: number;
  readonly aborted: boolean;
  /** With `dryRun`: differences between live and rebuilt (empty = identical). */
  readonly differences?: ReadModelDifference[];
}

/**
 * Builds read models from the event log into `target`, from its checkpoint (0 for a new
 * generation) to the head, then keeps catching up until no new event arrived during a pass, so
 * it ends current even while writers write. It never publishes change messages: the live
 * projector announced those changes already. Switching the active generation is the caller's
 * step (it needs the adapter's generation pointer); `dryRun` only compares.
 */
export const rebuildReadModels = async (options: RebuildOptions): Promise<RebuildResult> => {
  const { eventStore, target } = options;
  const checkpointName = options.checkpointName ?? 'projector';
  const projections = selectProjections(options.projections ?? PROJECTIONS, options.only);
  const resumedFrom = await target.projections.getCheckpoint(checkpointName);
  const meter = createRebuildMeter({
    resumedFrom,
    head: await eventStore.headPosition(),
    now: options.now ?? (() => new Date()),
    progress: options.progress,
    everyMs: options.progressEveryMs,
  });
  const now = options.now ?? (() => new Date());
  const applyBatch = async (batch: readonly RecordedEvent[], through: number): Promise<void> => {
    const ops = batch.length > 0 ? await projectBatch(projections, target, decodeEvents(batch)) : [];
    const last = batch.at(-1);
    // The window's history is rebuilt from the log too (docs/projections.md, rebuilds).
    const history = last ? historyRecordingFor(last, now(), options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS) : undefined;
    await target.projections.apply(
      ops.map((o) => o.op),
      { projection: checkpointName, position: through },
      history ? { history } : {},
    );
    meter.position = through;
    meter.events += batch.length;
    meter.report();
  };

  meter.report(true);
  const aborted = await catchUp(eventStore, meter, applyBatch, options.batchSize ?? 1_000, options.signal);
  if (!aborted) {
    // Everything up to here was announced by the live projector: a projector switched onto this
    // generation must not announce it again.
    await target.projections.apply([], { projection: publishedCheckpointName(checkpointName), position: meter.position });
  }
  const final = meter.snapshot();
  if (options.progress && !aborted) options.progress.done(final);
  const differences = options.dryRun && options.live ? await compareReadModels(options.live, target) : undefined;
  return { position: meter.position, resumedFrom, events: meter.events, eventsPerSecond: final.eventsPerSecond, aborted, ...(differences ? { differences } : {}) };
};

/** The projections named in `only` (all of the registry without it); an unknown name is an error. */
export const selectProjections = (registry: readonly Projection[], only: readonly string[] | undefined): readonly Projection[] => {
  const unknown = (only ?? []).filter((name) => !registry.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(`Unknown projection(s): ${unknown.join(', ')}; known: ${registry.map((p) => p.name).join(', ')}`);
  return only ? registry.filter((p) => only.includes(p.name)) : registry;
};

/**
 * Reads the log from the meter's position to its head in batches, then again to the new head
 * until a pass found no new event. Returns true when `signal` stopped it between batches.
 */
const catchUp = async (
  eventStore: EventStore,
  meter: RebuildMeter,
  applyBatch: (batch: readonly RecordedEvent[], through: number) => Promise<void>,
  batchSize: number,
  signal: AbortSignal | undefined,
): Promise<boolean> => {
  for (;;) {
    let batch: RecordedEvent[] = [];
    for await (const event of eventStore.readAll({ after: meter.position, until: meter.head })) {
      batch.push(event);
      if (batch.length < batchSize) continue;
      await applyBatch(batch, event.position);
      batch = [];
      if (signal?.aborted) return true;
    }
    // Up to the head even when its last positions hold no event of ours.
    if (batch.length > 0 || meter.position < meter.head) await applyBatch(batch, meter.head);
    const newHead = await eventStore.headPosition();
    if (newHead <= meter.head) return false;
    meter.head = newHead;
  }
};
