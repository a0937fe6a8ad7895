import { describe, expect, it } from 'vitest';
import { createPollingPositionWaiter } from './pollingPositionWaiter.js';

describe('polling position waiter', () => {
  it('answers true once the applied position reaches the asked one, false past the bound; polls only while someone waits', async () => {
    let applied = 5;
    let polls = 0;
    const waiter = createPollingPositionWaiter({ applied: async () => (polls++, applied), intervalMs: 5 });
    expect(await waiter.reached(5, 1_000)).toBe(true);
    const later = waiter.reached(8, 5_000);
    applied = 8;
    expect(await later).toBe(true);
    expect(await waiter.reached(100, 30)).toBe(false);
    const settled = polls;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(polls).toBeLessThanOrEqual(settled + 1);
    waiter.close();
  });

  it('keeps waiting through failed polls (an unreachable read model) until its bound', async () => {
    let fail = true;
    const waiter = createPollingPositionWaiter({ applied: async () => (fail ? Promise.reject(new Error('down')) : 3), intervalMs: 5 });
    const answer = waiter.reached(3, 2_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    fail = false;
    expect(await answer).toBe(true);
    waiter.close();
  });
});
