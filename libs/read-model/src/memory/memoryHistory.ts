import { EXPIRED, historyIndexStepMs, type ChangeEntry, type ChangeHistory, type HistoryRecording } from '../changeHistory.js';
import { APPLIED_CHECKPOINT } from '../readModel.js';
import type { MemoryRecords } from './memoryRecords.js';

/**
 * The change history in process memory (docs/read-models.md, "Change history"): every entry once,
 * in a log in position order, and per-collection and per-item lists of the same objects. Trimming
 * drops the oldest entries of the log and the fronts of their lists (all in position order).
 */
export interface MemoryHistoryState {
  readonly log: ChangeEntry[];
  readonly byCollection: Map<string, ChangeEntry[]>;
  readonly byItem: Map<string, ChangeEntry[]>;
  /** The applied position when recording began; null before the first recorded batch. */
  start: number | null;
  /** The time index: the applied position at moments one step apart, oldest first. */
  readonly times: { at: number; position: number }[];
  /** RESUME_WINDOW of the last recorded batch (null: nothing is trimmed yet). */
  windowMs: number | null;
}

export const createMemoryHistoryState = (): MemoryHistoryState => ({ log: [], byCollection: new Map(), byItem: new Map(), start: null, times: [], windowMs: null });

/** Inserts in position order: appended in the usual case, searched for after an out-of-order replay. */
const insertOrdered = (list: ChangeEntry[], entry: ChangeEntry): void => {
  let at = list.length;
  while (at > 0 && (list[at - 1] as ChangeEntry).position > entry.position) at--;
  if (list[at - 1]?.position === entry.position) return;
  list.splice(at, 0, entry);
};

const listOf = (map: Map<string, ChangeEntry[]>, id: string): ChangeEntry[] => {
  let list = map.get(id);
  if (!list) map.set(id, (list = []));
  return list;
};

/** The applied position at the latest point of the time index at or before `at` (0 when none). */
const positionAt = (state: MemoryHistoryState, at: number): number => {
  let found = 0;
  for (const point of state.times) {
    if (point.at > at) break;
    found = point.position;
  }
  return found;
};

export const memoryHistoryFloor = (state: MemoryHistoryState, checkpoints: ReadonlyMap<string, number>, now: number): number => {
  const start = state.start ?? checkpoints.get(APPLIED_CHECKPOINT) ?? 0;
  return state.windowMs === null ? start : Math.max(start, positionAt(state, now - state.windowMs));
};

/** Drops the entries at or below `floor` from the log and the fronts of their lists. */
const trim = (state: MemoryHistoryState, floor: number): void => {
  let drop = 0;
  while (drop < state.log.length && (state.log[drop] as ChangeEntry).position <= floor) {
    const entry = state.log[drop] as ChangeEntry;
    for (const [map, id] of [[state.byCollection, entry.collectionId], [state.byItem, entry.dataId]] as const) {
      const list = map.get(id);
      if (list?.[0] === entry) list.shift();
      if (list?.length === 0) map.delete(id);
    }
    drop++;
  }
  if (drop > 0) state.log.splice(0, drop);
};

/** Records the entries of one applied batch, then trims to the window (called by the projection store). */
export const recordMemoryHistory = (state: MemoryHistoryState, entries: readonly ChangeEntry[], previousCheckpoint: number, recording: HistoryRecording): void => {
  state.start ??= previousCheckpoint;
  state.windowMs = recording.windowMs;
  for (const entry of entries) {
    insertOrdered(state.log, entry);
    insertOrdered(listOf(state.byCollection, entry.collectionId), entry);
    insertOrdered(listOf(state.byItem, entry.dataId), entry);
  }
  // One step older than the floor, as on Redis (margin for clocks).
  trim(state, positionAt(state, recording.at.getTime() - recording.windowMs - historyIndexStepMs(recording.windowMs)));
};

/**
 * Records `at → position` in the time index: the newest point is replaced while it is less than a
 * step after the one before it (so it is always the last batch), and points older than the newest
 * one at or before at − window − step are forgotten. As the CHECKPOINT script on Redis.
 */
export const recordMemoryTime = (state: MemoryHistoryState, position: number, recording: HistoryRecording): void => {
  const at = recording.at.getTime();
  const step = historyIndexStepMs(recording.windowMs);
  const before = state.times.at(-2);
  if (before && at - before.at < step) state.times.pop();
  state.times.push({ at, position });
  state.times.sort((a, b) => a.at - b.at);
  const boundary = at - recording.windowMs - step;
  while (state.times.length > 1 && (state.times[1] as { at: number }).at <= boundary) state.times.shift();
};

export const createMemoryHistory = (state: MemoryHistoryState, records: MemoryRecords, checkpoints: ReadonlyMap<string, number>, now: () => Date): ChangeHistory => {
  const floor = async (): Promise<number> => memoryHistoryFloor(state, checkpoints, now().getTime());
  return {
    historyFloor: floor,
    async itemChanges(dataIds, after, until) {
      if (after < (await floor())) return EXPIRED;
      const found = [...new Set(dataIds)].flatMap((id) => (state.byItem.get(id) ?? []).filter((e) => e.position > after && e.position <= until));
      return found.sort((a, b) => a.position - b.position);
    },
    async collectionChanges(slug, after, limit) {
      if (after < (await floor())) return EXPIRED;
      const list = state.byCollection.get(slug) ?? [];
      let first = list.length;
      while (first > 0 && (list[first - 1] as ChangeEntry).position > after) first--;
      const changes = list.slice(first, first + limit);
      return { changes, hasMore: first + limit < list.length, lastChange: records.lastChange.get(slug) ?? 0 };
    },
  };
};
