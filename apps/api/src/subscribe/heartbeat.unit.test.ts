import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHeartbeat } from './heartbeat.js';

describe('startHeartbeat', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('beats once per interval until stopped', () => {
    let beats = 0;
    const stop = startHeartbeat(15_000, () => beats++);
    vi.advanceTimersByTime(14_999);
    expect(beats).toBe(0);
    vi.advanceTimersByTime(30_001);
    expect(beats).toBe(3);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(beats).toBe(3);
  });
});
