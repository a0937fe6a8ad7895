import type { EventStore, RecordedEvent } from '@pubstream/event-store';
import type { ReadModelOp } from '@pubstream/read-model';
import { compareReadModels, type ComparedStores, type ReadModelDifference } from './compareReadModels.js';
import { decodeEvents } from './decodeEvents.js';
import { DEFAULT_RESUME_WINDOW_MS, historyRecordingFor } from './historyRecording.js';
import { projectBatch } from './projectBatch.js';
import { publishedCheckpointName } from './checkpointNames.js';
import type { ProjectorStores } from './projectorStores.js';
import { PROJECTIONS, type Projection } from './projections/index.js';
import { overlayReads } from './readOverlay.js';
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
  /** Fold the next batch while this one is written (default true); false for comparisons. */
  readonly overlap?: boolean;
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
  // Folding batch n+1 overlaps writing batch n: its reads see batch n's ops through an overlay.
  const prepareBatch = async (batch: readonly RecordedEvent[], previous: readonly ReadModelOp[]): Promise<ReadModelOp[]> =>
    batch.length > 0 ? (await projectBatch(projections, overlayReads(target, previous), decodeEvents(batch))).map((o) => o.op) : [];
  const commitBatch = async (ops: readonly ReadModelOp[], batch: readonly RecordedEvent[], through: number): Promise<void> => {
    const last = batch.at(-1);
    // The window's history is rebuilt from the log too (docs/projections.md, rebuilds).
    const history = last ? historyRecordingFor(last, now(), options.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS) : undefined;
    await target.projections.apply(ops, { projection: checkpointName, position: through }, history ? { history } : {});
    meter.position = through;
    meter.events += batch.length;
    meter.report();
  };

  meter.report(true);
  const aborted = await catchUp(eventStore, meter, { prepare: prepareBatch, commit: commitBatch, overlap: options.overlap ?? true }, options.batchSize ?? 1_000, options.signal);
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

interface BatchSteps {
  /** Decodes and folds a batch into ops; `previous` are the ops of the batch still being written. */
  prepare(batch: readonly RecordedEvent[], previous: readonly ReadModelOp[]): Promise<ReadModelOp[]>;
  /** Writes the ops of `batch` (with its history) and the checkpoint `through`. */
  commit(ops: readonly ReadModelOp[], batch: readonly RecordedEvent[], through: number): Promise<void>;
  readonly overlap: boolean;
}

/**
 * Reads the log from the meter's position to its head in batches, then again to the new head
 * until a pass found no new event. One batch is written while the next is read and folded; the
 * checkpoints still advance in order, each after its batch's writes. Returns true when `signal`
 * stopped it between batches.
 */
const catchUp = async (eventStore: EventStore, meter: RebuildMeter, steps: BatchSteps, batchSize: number, signal: AbortSignal | undefined): Promise<boolean> => {
  let writing: Promise<void> = Promise.resolve();
  let previous: readonly ReadModelOp[] = [];
  // How far the handed-over batches reach (meter.position lags while the last one is written).
  let handedOver = meter.position;
  const handOver = async (batch: readonly RecordedEvent[], through: number): Promise<void> => {
    const ops = await steps.prepare(batch, previous);
    await writing;
    previous = ops;
    handedOver = through;
    writing = steps.commit(ops, batch, through);
    // Awaited before the next hand-over or at the end; this only keeps a failure from going unhandled meanwhile.
    writing.catch(() => undefined);
    if (!steps.overlap) await writing;
  };
  try {
    for (;;) {
      let batch: RecordedEvent[] = [];
      for await (const event of eventStore.readAll({ after: meter.position, until: meter.head })) {
        batch.push(event);
        if (batch.length < batchSize) continue;
        await handOver(batch, event.position);
        batch = [];
        if (signal?.aborted) return true;
      }
      // Up to the head even when its last positions hold no event of ours.
      if (batch.length > 0 || handedOver < meter.head) await handOver(batch, meter.head);
      await writing;
      const newHead = await eventStore.headPosition();
      if (newHead <= meter.head) return false;
      meter.head = newHead;
    }
  } finally {
    await writing;
  }
};
