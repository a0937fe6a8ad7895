import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSnapshotTracker, type SnapshotTrackerOptions } from './snapshotTracker.js';
import { createTimerSet } from './timerSet.js';

function tracker(overrides: Partial<SnapshotTrackerOptions> = {}) {
  const unseen: string[][] = [];
  const timers = createTimerSet();
  const snapshot = createSnapshotTracker({
    timers,
    quietMs: 100,
    maxMs: 1_000,
    watchedIds: ['a', 'b', 'c'],
    isCurrent: () => true,
    onUnseen: (ids) => unseen.push(ids),
    ...overrides,
  });
  return { snapshot, unseen, timers };
}

describe('createSnapshotTracker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a snapshot that goes quiet, then the watched ids it did not mention are reported once', () => {
    const { snapshot, unseen } = tracker();
    snapshot.begin();
    snapshot.saw('a');
    snapshot.touch();
    vi.advanceTimersByTime(99);
    expect(unseen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(unseen).toEqual([['b', 'c']]);
    vi.advanceTimersByTime(5_000);
    expect(unseen).toHaveLength(1);
  });

  it('given frames that never stop, then the snapshot is settled at its maximum', () => {
    const { snapshot, unseen } = tracker();
    snapshot.begin();
    for (let t = 0; t < 1_000; t += 50) {
      snapshot.touch();
      vi.advanceTimersByTime(50);
    }
    expect(unseen).toEqual([['a', 'b', 'c']]);
  });

  it('given every watched id mentioned, then nothing is reported', () => {
    const { snapshot, unseen } = tracker();
    snapshot.begin();
    for (const id of ['a', 'b', 'c']) snapshot.saw(id);
    vi.advanceTimersByTime(1_000);
    expect(unseen).toEqual([]);
  });

  it('given a new snapshot, then what the last one mentioned is forgotten', () => {
    const { snapshot, unseen } = tracker();
    snapshot.begin();
    snapshot.saw('a');
    expect(snapshot.hasSeen('a')).toBe(true);
    snapshot.begin();
    expect(snapshot.hasSeen('a')).toBe(false);
    vi.advanceTimersByTime(100);
    expect(unseen).toEqual([['a', 'b', 'c']]);
  });

  it('given no snapshot begun, then touching waits for nothing', () => {
    const { snapshot, timers } = tracker();
    snapshot.touch();
    expect(timers.size).toBe(0);
  });

  it('given a stopped stream or a replaced one, then nothing is reported', () => {
    const stopped = tracker();
    stopped.snapshot.begin();
    stopped.snapshot.stop();
    expect(stopped.timers.size).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(stopped.unseen).toEqual([]);

    const replaced = tracker({ isCurrent: () => false });
    replaced.snapshot.begin();
    vi.advanceTimersByTime(1_000);
    expect(replaced.unseen).toEqual([]);
  });
});
