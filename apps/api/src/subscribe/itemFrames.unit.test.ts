import { describe, expect, it } from 'vitest';
import { ItemFrames } from './itemFrames.js';
import type { SnapshotItem } from './itemsAtPosition.js';
import { itemDeleteFrame, itemUpdateFrame, withId } from './sseFrames.js';

const record = (dataId: string, version: number): SnapshotItem => ({ dataId, data: { v: version }, version });
const update = (dataId: string, version: number) => ({ dataId, action: 'update' as const, version, position: 100 + version, data: { v: version } });

describe('ItemFrames', () => {
  it('given messages out of order and repeated, then only versions above the last one seen become deltas', () => {
    const frames = new ItemFrames();
    const versions = [1, 3, 2, 3, 4].map((version) => frames.delta(update('a', version))?.version ?? null);
    expect(versions).toEqual([1, 3, null, null, 4]);
  });

  it('frames an update and a delete once, with the item, its version and its position as the id', () => {
    const frames = new ItemFrames();
    expect(frames.delta(update('a', 0))).toEqual({ dataId: 'a', action: 'update', version: 0, position: 100, frame: withId(100, itemUpdateFrame('a', { v: 0 }, 0)) });
    expect(frames.delta({ dataId: 'a', action: 'delete', version: 1, position: 101, data: {} })?.frame).toBe(`id: 101\n${itemDeleteFrame('a', 1)}`);
  });

  // Frames are strings (compared by value), so reuse shows when a record of the same version
  // carries other data: the kept frame is what comes back.
  const sameVersion = (dataId: string, version: number): SnapshotItem => ({ ...record(dataId, version), data: { other: true } });

  it('given a snapshot of the version last fanned out, then it reuses that frame, without the id (snapshot frames carry none)', () => {
    const frames = new ItemFrames();
    const delta = frames.delta(update('a', 5));
    expect(frames.snapshotFrame(sameVersion('a', 5), true)).toBe(delta?.frame.replace('id: 105\n', ''));
    expect(frames.snapshotFrame(sameVersion('a', 5), true)).toBe(itemUpdateFrame('a', { v: 5 }, 5));
    expect(frames.snapshotFrame(record('a', 4), true)).toBe(itemUpdateFrame('a', { v: 4 }, 4));
  });

  it('keeps a snapshot frame for the next snapshots only for a followed item and a newer record', () => {
    const frames = new ItemFrames();
    frames.snapshotFrame(record('a', 2), true);
    expect(frames.snapshotFrame(sameVersion('a', 2), true)).toBe(itemUpdateFrame('a', { v: 2 }, 2));
    frames.snapshotFrame(record('b', 1), false);
    expect(frames.snapshotFrame(sameVersion('b', 1), false)).toBe(itemUpdateFrame('b', { other: true }, 1));
    frames.snapshotFrame(record('a', 1), true);
    expect(frames.snapshotFrame(sameVersion('a', 2), true)).toBe(itemUpdateFrame('a', { v: 2 }, 2));
  });

  it('given an item no stream follows any more, then it forgets its version: a later message is news again', () => {
    const frames = new ItemFrames();
    frames.delta(update('a', 7));
    frames.forget('a');
    expect(frames.delta(update('a', 3))?.version).toBe(3);
  });
});
