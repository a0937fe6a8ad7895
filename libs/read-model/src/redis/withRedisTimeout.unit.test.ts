import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisTimeoutError, withRedisTimeout } from './boundedRedisCall.js';

describe('withRedisTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given an answer in time, then it, and no timer is left', async () => {
    await expect(withRedisTimeout(Promise.resolve('OK'), 400)).resolves.toBe('OK');
    await expect(withRedisTimeout(Promise.reject(new Error('READONLY')), 400)).rejects.toThrow('READONLY');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('given a frozen Redis, then a RedisTimeoutError after the bound', async () => {
    const outcome = withRedisTimeout(new Promise(() => {}), 400);
    const assertion = expect(outcome).rejects.toThrow(RedisTimeoutError);
    // The bound, then one more turn of the loop (the reply may be waiting in the socket).
    await vi.advanceTimersByTimeAsync(401);
    await assertion;
    await expect(outcome).rejects.toThrow('Redis did not answer within 400 ms');
  });
});
