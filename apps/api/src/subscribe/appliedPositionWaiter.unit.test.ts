import { describe, expect, it } from 'vitest';
import { createAppliedPositionWaiter } from './appliedPositionWaiter.js';

describe('createAppliedPositionWaiter', () => {
  it('answers true at once for a position already applied, with one read', async () => {
    let reads = 0;
    const wait = createAppliedPositionWaiter({ appliedPosition: async () => (reads++, 10), timeoutMs: 1_000 });
    expect(await wait(10)).toBe(true);
    expect(reads).toBe(1);
  });

  it('waits until the node gets there, sharing one poll between waiters', async () => {
    let applied = 0;
    let reads = 0;
    const wait = createAppliedPositionWaiter({ appliedPosition: async () => (reads++, applied), timeoutMs: 5_000, pollMs: 5 });
    const waits = [wait(3), wait(3), wait(2)];
    await new Promise((resolve) => setTimeout(resolve, 30));
    const readsWhileWaiting = reads;
    applied = 3;
    expect(await Promise.all(waits)).toEqual([true, true, true]);
    // Three waiters, one poll: not three reads per tick.
    expect(readsWhileWaiting).toBeLessThan(3 * (30 / 5));
  });

  it('gives up after its bound: false, never a skip', async () => {
    const wait = createAppliedPositionWaiter({ appliedPosition: async () => 1, timeoutMs: 20, pollMs: 5 });
    expect(await wait(2)).toBe(false);
  });

  it('keeps polling through failed reads until the deadline', async () => {
    let calls = 0;
    const wait = createAppliedPositionWaiter({
      appliedPosition: async () => {
        calls++;
        if (calls < 3) throw new Error('redis down');
        return 5;
      },
      timeoutMs: 2_000,
      pollMs: 1,
    });
    expect(await wait(5)).toBe(true);
  });
});
