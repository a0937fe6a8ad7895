import { describe, expect, it } from 'vitest';
import { retryingOnce } from './retryingOnce.js';

describe('retryingOnce', () => {
  it('given two uses, then the set-up runs once and both get its result', async () => {
    let runs = 0;
    const resource = retryingOnce(async () => ++runs);
    expect(resource.started).toBeUndefined();
    const [a, b] = await Promise.all([resource.get(), resource.get()]);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(resource.started).toBeDefined();
  });

  it('given a failed set-up, then it is forgotten and the next use tries again', async () => {
    let runs = 0;
    const resource = retryingOnce(async () => {
      runs += 1;
      if (runs === 1) throw new Error('broker down');
      return 'ready';
    });
    await expect(resource.get()).rejects.toThrow('broker down');
    expect(resource.started).toBeUndefined();
    await expect(resource.get()).resolves.toBe('ready');
    expect(runs).toBe(2);
  });
});
