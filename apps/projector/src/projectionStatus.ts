import type { EventStore } from '@pubstream/event-store';
import type { ChangeHistory, ProjectionStore } from '@pubstream/read-model';
import { countEvents, measureLag } from './lag.js';
import { publishedCheckpointName } from './checkpointNames.js';
import type { ProjectorStatus } from './projectorOptions.js';
import { PROJECTIONS, type Projection } from './projections/index.js';

/** One projection's progress: the projector's figures (applied, published, head, lag, events/s) without its in-process state. */
export interface ProjectionStatusRow extends Omit<ProjectorStatus, 'name' | 'state'> {
  /** A projection of the registry. */
  readonly projection: string;
  /** The checkpoint it is applied by (all registered projections share the projector's). */
  readonly checkpoint: string;
  /**
   * The oldest position a resume or `changes?since=` still reaches (docs/read-models.md, "Change
   * history"); absent when no history was given.
   */
  readonly historyFloor?: number;
}

export interface ProjectionStatusOptions {
  readonly eventStore: EventStore;
  /** Where the projector's checkpoints are stored. */
  readonly checkpoints: Pick<ProjectionStore, 'getCheckpoint'>;
  /** The change history, for its floor. */
  readonly history?: Pick<ChangeHistory, 'historyFloor'>;
  /** The projector's checkpoint name (default `projector`). */
  readonly name?: string;
  readonly projections?: readonly Projection[];
  /** How long to watch the checkpoint move to measure events/s (default 1000 ms; 0 = skip). */
  readonly sampleMs?: number;
  readonly now?: () => Date;
}

/**
 * `pubstream projections status`, from outside the projector process: per projection its
 * checkpoint, the log head, the lag in events and seconds, and the rate the running projector
 * applies at now (measured by sampling the stored checkpoint twice).
 */
export const projectionStatus = async (options: ProjectionStatusOptions): Promise<ProjectionStatusRow[]> => {
  const { eventStore, checkpoints } = options;
  const name = options.name ?? 'projector';
  const now = options.now ?? (() => new Date());
  const sampleMs = options.sampleMs ?? 1_000;
  const first = await checkpoints.getCheckpoint(name);
  let eventsPerSecond = 0;
  let applied = first;
  if (sampleMs > 0) {
    const t0 = now().getTime();
    await new Promise((resolve) => setTimeout(resolve, sampleMs));
    applied = await checkpoints.getCheckpoint(name);
    const seconds = Math.max(0.001, (now().getTime() - t0) / 1000);
    eventsPerSecond = (await countEvents(eventStore, first, applied)) / seconds;
  }
  const [published, head, historyFloor] = await Promise.all([
    checkpoints.getCheckpoint(publishedCheckpointName(name)),
    eventStore.headPosition(),
    options.history?.historyFloor(),
  ]);
  const lag = await measureLag(eventStore, applied, head, now);
  return (options.projections ?? PROJECTIONS).map((p) => ({
    projection: p.name,
    checkpoint: name,
    applied,
    published,
    head,
    lagEvents: lag.events,
    lagSeconds: lag.seconds,
    eventsPerSecond,
    ...(historyFloor === undefined ? {} : { historyFloor }),
  }));
};
