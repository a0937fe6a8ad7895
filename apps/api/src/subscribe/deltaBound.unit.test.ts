import { describe, expect, it } from 'vitest';
import { DeltaBound } from './deltaBound.js';

/** A socket whose last-read unsent bytes are stale until refreshed. */
const socketHolding = (lastRead: number, now: number) => {
  const socket = {
    unsentBytes: lastRead,
    refreshUnsent() {
      socket.unsentBytes = now;
      return now;
    },
  };
  return socket;
};

describe('DeltaBound', () => {
  it('given room under the bound, then the delta is queued as one', () => {
    const bound = new DeltaBound(1_000);
    expect(bound.judge(100, { countedBytes: 500, oversize: 0 }, socketHolding(300, 300))).toBe('delta');
  });

  it('given a stale reading over the bound but a socket that drained meanwhile, then it looks again and queues the delta', () => {
    const bound = new DeltaBound(1_000);
    const socket = socketHolding(900, 0);
    expect(bound.judge(200, { countedBytes: 0, oversize: 0 }, socket)).toBe('delta');
    expect(socket.unsentBytes).toBe(0);
  });

  it('given a socket that really holds too much, then the connection is cut', () => {
    const bound = new DeltaBound(1_000);
    expect(bound.judge(200, { countedBytes: 100, oversize: 0 }, socketHolding(900, 800))).toBe('cut');
  });

  it('given a delta bigger than the bound by itself, then it passes alone as oversize; a second one behind it cuts', () => {
    const bound = new DeltaBound(1_000);
    expect(bound.judge(5_000, { countedBytes: 0, oversize: 0 }, socketHolding(0, 0))).toBe('oversize');
    expect(bound.judge(5_000, { countedBytes: 0, oversize: 1 }, socketHolding(0, 0))).toBe('cut');
  });

  it('keeps the most bytes ever judged', () => {
    const bound = new DeltaBound(1_000);
    bound.note(300, { countedBytes: 200, oversize: 0 });
    bound.note(100, { countedBytes: 0, oversize: 0 });
    expect(bound.peak).toBe(500);
  });
});
