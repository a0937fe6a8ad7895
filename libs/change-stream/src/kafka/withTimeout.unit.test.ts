import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTimeout } from './withTimeout.js';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a promise that settles in time, then its outcome, and no timer is left', async () => {
    await expect(withTimeout(Promise.resolve(7), 100, 'late')).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('boom')), 100, 'late')).rejects.toThrow('boom');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('given a promise that never settles, then the message after the time', async () => {
    const outcome = withTimeout(new Promise(() => {}), 100, 'consumer group g not joined within 100 ms');
    const assertion = expect(outcome).rejects.toThrow('consumer group g not joined within 100 ms');
    await vi.advanceTimersByTimeAsync(100);
    await assertion;
  });
});
