import { describe, expect, it } from 'vitest';
import { retryRetriable } from './retryRetriable.js';

const retriable = () => Object.assign(new Error('This server is not the leader for that topic-partition'), { retriable: true });

describe('retryRetriable', () => {
  it('given retriable failures, then it waits longer each time (at most 1 s) until the call succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await retryRetriable(
      async () => {
        calls += 1;
        if (calls < 4) throw retriable();
        return 'offsets';
      },
      20,
      async (ms) => void waits.push(ms),
    );
    expect(result).toBe('offsets');
    expect(waits).toEqual([50, 100, 150]);
  });

  it('given a failure that is not retriable, then it throws at once', async () => {
    const waits: number[] = [];
    await expect(retryRetriable(() => Promise.reject(new Error('bad')), 20, async (ms) => void waits.push(ms))).rejects.toThrow('bad');
    expect(waits).toEqual([]);
  });

  it('given retriable failures every time, then it gives up after the attempts with the last error', async () => {
    const waits: number[] = [];
    await expect(retryRetriable(() => Promise.reject(retriable()), 25, async (ms) => void waits.push(ms))).rejects.toThrow('not the leader');
    expect(waits).toHaveLength(24);
    expect(Math.max(...waits)).toBe(1_000);
  });
});
