import type { EventStore } from '@pubstream/event-store';
import type { ProjectionStore } from '@pubstream/read-model';
import { publishedCheckpointName } from './checkpointNames.js';
import type { ProjectorSnapshot } from './projectorOptions.js';

/** Where the two cursors stand against the log's head, for /metrics (docs/projections.md). */
export interface CursorSample {
  readonly head: number;
  readonly cursors: Record<'applied' | 'published', { readonly position: number; readonly lagPositions: number; readonly lagSeconds: number }>;
}

export interface CursorSampleSource {
  readonly eventStore: Pick<EventStore, 'headPosition' | 'readAll'>;
  /** Where a standby reads the active projector's checkpoints. */
  readonly checkpoints: Pick<ProjectionStore, 'getCheckpoint'>;
  readonly snapshot: () => ProjectorSnapshot;
  readonly now: () => Date;
  /** A scrape never waits longer than this on the log or the read model. */
  readonly timeoutMs?: number;
}

const within = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/** Seconds since the first event after `position` was recorded; 0 when there is none. */
const secondsBehind = async (eventStore: CursorSampleSource['eventStore'], position: number, head: number, now: Date): Promise<number> => {
  if (position >= head) return 0;
  for await (const event of eventStore.readAll({ after: position, maxCount: 1 })) return Math.max(0, (now.getTime() - event.recordedAt.getTime()) / 1000);
  return 0;
};

/**
 * Samples both cursors: an active projector's from memory, a standby's from the stored
 * checkpoints; then the head and the age of the oldest event each cursor has not reached. Cheap
 * (two reads of one event at most), bounded in time.
 */
export const sampleCursors = async (source: CursorSampleSource): Promise<CursorSample> => {
  const snap = source.snapshot();
  const timeoutMs = source.timeoutMs ?? 1_000;
  const [applied, published] = snap.active
    ? [snap.applied, snap.published]
    : await within(Promise.all([source.checkpoints.getCheckpoint(snap.name), source.checkpoints.getCheckpoint(publishedCheckpointName(snap.name))]), timeoutMs);
  const head = await within(source.eventStore.headPosition(), timeoutMs);
  const now = source.now();
  const [appliedSeconds, publishedSeconds] = await within(
    Promise.all([secondsBehind(source.eventStore, applied, head, now), secondsBehind(source.eventStore, published, head, now)]),
    timeoutMs,
  );
  return {
    head,
    cursors: {
      applied: { position: applied, lagPositions: Math.max(0, head - applied), lagSeconds: appliedSeconds },
      published: { position: published, lagPositions: Math.max(0, head - published), lagSeconds: publishedSeconds },
    },
  };
};
