import { describe, expect, it } from 'vitest';
import { NetworkError, UnauthorizedError } from './errors.js';
import { planAfterFailure, planAfterReconnect, type ReconnectTiming } from './reconnectPlan.js';

const timing = (random = 0): ReconnectTiming => ({ retry: { baseDelayMs: 100, maxDelayMs: 10_000 }, debounceMs: 25, maxCutBackoffMs: 300_000, random: () => random });

describe('planAfterReconnect', () => {
  it('given a cycle or an unreadable payload, then it re-opens at once and forgets the cuts', () => {
    expect(planAfterReconnect({ reason: 'cycle' }, 3, timing())).toEqual({ action: 'now', cuts: 0 });
    expect(planAfterReconnect(undefined, 3, timing())).toEqual({ action: 'now', cuts: 0 });
  });

  it('given a revoked key, then it stops with a 401', () => {
    const plan = planAfterReconnect({ reason: 'key_revoked' }, 0, timing());
    expect(plan.action).toBe('refused');
    expect(plan.action === 'refused' && plan.error).toBeInstanceOf(UnauthorizedError);
  });

  it('given a shutdown, then it waits the server’s hint and does not count a cut', () => {
    expect(planAfterReconnect({ reason: 'shutdown', retryAfterMs: 3_000 }, 2, timing())).toEqual({ action: 'wait', cuts: 2, delayMs: 3_000 });
  });

  it('given repeated cuts, then each counts and the wait grows beyond the hint', () => {
    expect(planAfterReconnect({ reason: 'slow_consumer', retryAfterMs: 1_000 }, 0, timing())).toEqual({ action: 'wait', cuts: 1, delayMs: 1_000 });
    expect(planAfterReconnect({ reason: 'resync_failed', retryAfterMs: 1_000 }, 2, timing())).toEqual({ action: 'wait', cuts: 3, delayMs: 2_000 });
  });

  it('given a hint that is not a finite number, then it waits no hint', () => {
    expect(planAfterReconnect({ reason: 'shutdown', retryAfterMs: Number.NaN }, 0, timing())).toEqual({ action: 'wait', cuts: 0, delayMs: 0 });
  });
});

describe('planAfterFailure', () => {
  it('given a refusal, then it stops with the typed error', () => {
    const plan = planAfterFailure({ code: 401, message: 'Non-200 status code (401)' }, 0, timing());
    expect(plan).toEqual({ action: 'refused', error: expect.any(UnauthorizedError) });
  });

  it('given network loss, then it counts the failure and waits a jittered backoff, never less than the debounce', () => {
    const first = planAfterFailure({ message: 'socket hang up' }, 0, timing(0));
    expect(first).toEqual({ action: 'wait', failures: 1, delayMs: 25, error: expect.any(NetworkError) });
    expect(first.error.message).toBe('Stream interrupted: socket hang up; reconnecting');
    const third = planAfterFailure({}, 2, timing(0.5));
    expect(third).toEqual({ action: 'wait', failures: 3, delayMs: 200, error: expect.any(NetworkError) });
    expect(third.error.message).toBe('Stream interrupted; reconnecting');
  });
});
