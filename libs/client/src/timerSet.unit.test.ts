import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTimerSet } from './timerSet.js';

describe('createTimerSet', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a timer, when its time comes, then it runs once and is no longer pending', () => {
    const timers = createTimerSet();
    const fn = vi.fn();
    timers.later(100, fn);
    expect(timers.size).toBe(1);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(timers.size).toBe(0);
  });

  it('given a cancelled timer, then it never runs; cancelling undefined or a fired timer is harmless', () => {
    const timers = createTimerSet();
    const fn = vi.fn();
    const timer = timers.later(100, fn);
    timers.cancel(timer);
    timers.cancel(undefined);
    timers.cancel(timer);
    vi.advanceTimersByTime(1_000);
    expect(fn).not.toHaveBeenCalled();
    expect(timers.size).toBe(0);
  });

  it('given several timers, when cleared, then none runs', () => {
    const timers = createTimerSet();
    const fn = vi.fn();
    timers.later(10, fn);
    timers.later(20, fn);
    timers.clear();
    vi.advanceTimersByTime(1_000);
    expect(fn).not.toHaveBeenCalled();
    expect(timers.size).toBe(0);
  });
});
