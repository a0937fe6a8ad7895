import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthThrottle } from './authThrottle.js';

// rate-limiter-flexible reads Date.now() and expires its counters with setTimeout: the clock is
// injected by faking exactly those (an injected `now` would be ignored by the library).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: new Date('2025-03-01T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const options = { maxFailures: 5, blockMs: 60_000, maxBlockMs: 3_600_000 };

/** Fails until the address is blocked; the block length in seconds. */
const failUntilBlocked = async (throttle: ReturnType<typeof createAuthThrottle>, address: string): Promise<number> => {
  for (let attempt = 1; attempt <= options.maxFailures; attempt++) expect(await throttle.recordFailure(address)).toBe(0);
  return throttle.recordFailure(address);
};

describe('auth throttle', () => {
  it('given 5 failures in a minute, when a sixth comes, then the address is blocked for a minute', async () => {
    const throttle = createAuthThrottle(options);
    expect(await failUntilBlocked(throttle, '10.0.0.1')).toBe(60);
    expect(await throttle.blockedFor('10.0.0.1')).toBe(60);
    vi.advanceTimersByTime(45_000);
    expect(await throttle.blockedFor('10.0.0.1')).toBe(15);
    expect(await throttle.blockedFor('10.0.0.2')).toBe(0);
    vi.advanceTimersByTime(15_001);
    expect(await throttle.blockedFor('10.0.0.1')).toBe(0);
  });

  it('forgets failures spread over more than a minute', async () => {
    const throttle = createAuthThrottle(options);
    for (let i = 0; i < 4; i++) expect(await throttle.recordFailure('10.0.0.1')).toBe(0);
    vi.advanceTimersByTime(61_000);
    for (let i = 0; i < 5; i++) expect(await throttle.recordFailure('10.0.0.1')).toBe(0);
    expect(await throttle.blockedFor('10.0.0.1')).toBe(0);
  });

  it('doubles each repeated block, up to the cap', async () => {
    const throttle = createAuthThrottle(options);
    const lengths: number[] = [];
    for (let block = 0; block < 9; block++) {
      const seconds = await failUntilBlocked(throttle, '10.0.0.1');
      lengths.push(seconds);
      vi.advanceTimersByTime(seconds * 1000 + 1);
      expect(await throttle.blockedFor('10.0.0.1')).toBe(0);
    }
    expect(lengths).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it('starts again from the first block length after a day without a block', async () => {
    const throttle = createAuthThrottle(options);
    expect(await failUntilBlocked(throttle, '10.0.0.1')).toBe(60);
    vi.advanceTimersByTime(61_000);
    expect(await failUntilBlocked(throttle, '10.0.0.1')).toBe(120);
    vi.advanceTimersByTime(24 * 3_600_000 + 1);
    expect(await failUntilBlocked(throttle, '10.0.0.1')).toBe(60);
  });

  it('counts concurrent failures past the limit as one block', async () => {
    const throttle = createAuthThrottle(options);
    for (let i = 0; i < 5; i++) await throttle.recordFailure('10.0.0.1');
    const results = await Promise.all([throttle.recordFailure('10.0.0.1'), throttle.recordFailure('10.0.0.1'), throttle.recordFailure('10.0.0.1')]);
    expect(results).toEqual([60, 60, 60]);
    vi.advanceTimersByTime(60_001);
    expect(await failUntilBlocked(throttle, '10.0.0.1')).toBe(120);
  });
});
