import { describe, expect, it } from 'vitest';
import { createPositionWatch } from './positionWatch.js';

describe('position watch', () => {
  it('answers waiters when the position is reached, false on timeout, and never moves back on advance', async () => {
    const watch = createPositionWatch(3);
    expect(await watch.reach(3, 0)).toBe(true);
    const reached = watch.reach(10, 5_000);
    watch.advance(9);
    watch.advance(2);
    expect(watch.get()).toBe(9);
    watch.advance(12);
    expect(await reached).toBe(true);
    expect(await watch.reach(20, 10)).toBe(false);
  });

  it('reset moves it back (a new active period after the read model lost its data)', () => {
    const watch = createPositionWatch(50);
    watch.reset(0);
    expect(watch.get()).toBe(0);
  });

  it('passes() resolves once the position is past a value, or when aborted; settle() answers everyone', async () => {
    const watch = createPositionWatch(5);
    const past = watch.passes(5, new AbortController().signal);
    watch.advance(6);
    await past;
    const stop = new AbortController();
    const waiting = watch.passes(10, stop.signal);
    stop.abort();
    await waiting;
    const pending = watch.reach(100, 60_000);
    watch.settle();
    expect(await pending).toBe(false);
  });
});
