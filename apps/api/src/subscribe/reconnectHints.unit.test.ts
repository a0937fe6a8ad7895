import { describe, expect, it } from 'vitest';
import { createReconnectHints } from './reconnectHints.js';

/** A seeded generator: exact and repeatable. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('reconnect hints', () => {
  it('given a drain of 1,000 streams over 10 s, then every second of the window gets a tenth of them, in random order', () => {
    const hints = createReconnectHints({ shutdownWindowMs: 10_000, random: seeded(7) });
    const delays = hints.spreadOverWindow(1_000);
    expect(delays).toHaveLength(1_000);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(10_000);
    }
    for (let second = 0; second < 10; second++) expect(delays.filter((ms) => Math.floor(ms / 1_000) === second)).toHaveLength(100);
    // Not in connection order: the first streams do not all come back first.
    expect(delays.slice(0, 100).filter((ms) => ms < 1_000).length).toBeLessThan(50);
  });

  it('given a window of 0, then everyone may come back at once', () => {
    expect(createReconnectHints({ shutdownWindowMs: 0 }).spreadOverWindow(3)).toEqual([0, 0, 0]);
  });

  it('gives every stream a retry: of 1-5 s, a cut slow consumer 5-15 s, and nothing for reasons that reconnect at once or never', () => {
    const low = createReconnectHints({ shutdownWindowMs: 10_000, random: () => 0 });
    const high = createReconnectHints({ shutdownWindowMs: 10_000, random: () => 0.999_999 });
    expect([low.streamRetryMs(), high.streamRetryMs()]).toEqual([1_000, 4_999]);
    expect([low.retryAfterMs('slow_consumer'), high.retryAfterMs('slow_consumer')]).toEqual([5_000, 14_999]);
    expect(low.retryAfterMs('resync_failed')).toBe(1_000);
    for (const reason of ['cycle', 'key_revoked', 'plan_changed'] as const) expect(high.retryAfterMs(reason)).toBeUndefined();
  });
});
