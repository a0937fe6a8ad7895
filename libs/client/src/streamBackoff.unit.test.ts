import { describe, expect, it } from 'vitest';
import { streamReconnectDelay } from './streamBackoff.js';

const options = { baseDelayMs: 250, maxMs: 300_000 };

describe('streamReconnectDelay', () => {
  it('given a first cut, then it waits exactly what the server asked', () => {
    expect(streamReconnectDelay(7_300, 1, options, () => 0.9)).toBe(7_300);
    expect(streamReconnectDelay(0, 0, options, () => 0.9)).toBe(0);
  });

  it('given repeated cuts, then the wait doubles with jitter (at least half of the ceiling) and never exceeds the cap', () => {
    expect(streamReconnectDelay(5_000, 2, options, () => 0)).toBe(5_000);
    expect(streamReconnectDelay(5_000, 2, options, () => 0.999)).toBeLessThanOrEqual(10_000);
    expect(streamReconnectDelay(5_000, 3, options, () => 0)).toBe(10_000);
    expect(streamReconnectDelay(5_000, 4, options, () => 0)).toBe(20_000);
    expect(streamReconnectDelay(5_000, 30, options, () => 0.999)).toBeLessThanOrEqual(300_000);
    expect(streamReconnectDelay(5_000, 30, options, () => 0)).toBe(150_000);
  });

  it('given no hint, then repeated cuts still back off from the base delay', () => {
    expect(streamReconnectDelay(0, 3, options, () => 0)).toBe(500);
  });
});
