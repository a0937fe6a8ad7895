import { describe, expect, it } from 'vitest';
import { createFrameCounter, percentile } from './sseLoad.js';

describe('createFrameCounter', () => {
  it('counts the frames each chunk ends, a separator split across chunks included', () => {
    const count = createFrameCounter();
    expect(count('event: connected\ndata: {}\n\nevent: update\ndata: 1\n\n')).toBe(2);
    expect(count('event: update\ndata: 2\n')).toBe(0);
    expect(count('\nevent: update\ndata: 3')).toBe(1);
    expect(count('\n\n: heartbeat\n\n')).toBe(2);
  });

  it('does not count a chunk ending in a blank line twice when the next starts with a newline of its own frame', () => {
    const count = createFrameCounter();
    expect(count('data: 1\n\n')).toBe(1);
    expect(count('\ndata: 2\n\n')).toBe(1);
  });
});

describe('percentile', () => {
  it('picks the value at or above the rank, NaN for no values', () => {
    const values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(values, 50)).toBe(6);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});
