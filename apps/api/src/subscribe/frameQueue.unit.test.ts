import { describe, expect, it } from 'vitest';
import { FrameQueue, type FrameKind } from './frameQueue.js';

const queueOf = (...frames: [string, FrameKind][]): FrameQueue => {
  const queue = new FrameQueue();
  for (const [frame, kind] of frames) queue.push(frame, Buffer.byteLength(frame), kind);
  return queue;
};

const drain = (queue: FrameQueue, maxBytes: number): string[] => {
  const slices: string[] = [];
  while (queue.length > 0) slices.push(queue.takeSlice(maxBytes));
  return slices;
};

describe('FrameQueue', () => {
  it('given deltas and snapshot frames, then only the deltas count against the bound', () => {
    const queue = queueOf(['a'.repeat(10), 'snapshot'], ['b'.repeat(5), 'delta'], ['c'.repeat(100), 'oversize']);
    expect(queue.bytes).toBe(115);
    expect(queue.countedBytes).toBe(5);
    expect(queue.oversize).toBe(1);
  });

  it('given frames bigger than a slice, when taken in slices, then the slices rebuild them exactly and no slice is much over the size', () => {
    const big = `event: update\ndata: ${JSON.stringify({ text: 'é€😀x'.repeat(5_000) })}\n\n`;
    const queue = queueOf(['small\n\n', 'snapshot'], [big, 'snapshot'], ['tail\n\n', 'delta']);
    const slices = drain(queue, 1_000);
    expect(slices.join('')).toBe(`small\n\n${big}tail\n\n`);
    for (const slice of slices) {
      expect(Buffer.byteLength(slice)).toBeLessThanOrEqual(1_000);
      // Never half a surrogate pair: each slice is valid UTF-8 on its own.
      expect(Buffer.from(slice, 'utf8').toString('utf8')).toBe(slice);
    }
    expect(queue).toMatchObject({ bytes: 0, countedBytes: 0, oversize: 0, partial: false });
  });

  it('given an oversize delta being sent in slices, then it counts as queued until its last slice is taken', () => {
    const queue = queueOf(['x'.repeat(3_000), 'oversize']);
    queue.takeSlice(1_000);
    expect(queue.partial).toBe(true);
    expect(queue.oversize).toBe(1);
    expect(queue.bytes).toBeLessThan(3_000);
    drain(queue, 1_000);
    expect(queue.oversize).toBe(0);
    expect(queue.partial).toBe(false);
  });

  it('given small frames, when all are taken, then they come back whole and in order', () => {
    const queue = queueOf(['a\n\n', 'delta'], ['b\n\n', 'delta']);
    expect(queue.takeAll()).toEqual(['a\n\n', 'b\n\n']);
    expect(queue).toMatchObject({ length: 0, bytes: 0, countedBytes: 0 });
  });

  it('given frames read whole and the queue cleared, then it is empty and takes the next frames from the start', () => {
    const queue = queueOf(['a\n\n', 'delta'], ['b\n\n', 'oversize']);
    expect(queue.whole).toEqual(['a\n\n', 'b\n\n']);
    queue.clear();
    expect(queue).toMatchObject({ length: 0, bytes: 0, countedBytes: 0, oversize: 0, whole: [] });
    queue.push('c\n\n', 3, 'delta');
    expect(queue.whole).toEqual(['c\n\n']);
    expect(queue.takeSlice(100)).toBe('c\n\n');
    expect(queue).toMatchObject({ length: 0, bytes: 0, countedBytes: 0 });
  });
});
