import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoff', () => {
  const options = { initialMs: 100, maxMs: 2_000 };
  it('doubles from initialMs and never exceeds maxMs, half of each delay drawn at random', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(attempt, options, () => 1))).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000]);
    expect([1, 2, 6].map((attempt) => backoffDelay(attempt, options, () => 0))).toEqual([50, 100, 1_000]);
  });
});
