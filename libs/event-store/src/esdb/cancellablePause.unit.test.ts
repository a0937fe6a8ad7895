import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCancellablePause } from './cancellablePause.js';

describe('createCancellablePause', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('given a wait, then it ends after its time', async () => {
    const pause = createCancellablePause();
    let ended = false;
    void pause.wait(100).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
  });

  it('given stop during a wait, then it ends at once and leaves no timer', async () => {
    const pause = createCancellablePause();
    const waiting = pause.wait(60_000);
    pause.stop();
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('given stop with no wait under way, then nothing happens', () => {
    expect(() => createCancellablePause().stop()).not.toThrow();
  });
});
