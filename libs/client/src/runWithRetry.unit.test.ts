import { describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import { NetworkError, NotFoundError, RateLimitedError, ServiceUnavailableError, UnauthorizedError } from './errors.js';
import { runWithRetry } from './runWithRetry.js';

function fakeClock(random = 0.5) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    random: () => random,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps };
}

function failing(errors: unknown[], result = 'ok') {
  const calls: number[] = [];
  return {
    calls,
    attempt: async (n: number) => {
      calls.push(n);
      const error = errors.shift();
      if (error) throw error;
      return result;
    },
  };
}

const policy = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 1_000 };

describe('runWithRetry', () => {
  it('retries 503 and network errors with the full-jitter schedule, then returns the result', async () => {
    const { clock, sleeps } = fakeClock(0.5);
    const op = failing([new ServiceUnavailableError(503, 'Service Unavailable', 'down'), new NetworkError('reset'), new NetworkError('reset')]);
    await expect(runWithRetry(op.attempt, policy, clock)).resolves.toBe('ok');
    expect(op.calls).toEqual([1, 2, 3, 4]);
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('waits for the 429 reset before trying again', async () => {
    const { clock, sleeps } = fakeClock(0);
    const op = failing([new RateLimitedError(429, 'Too Many Requests', 'Rate limit exceeded. Try again in 12 seconds.', { retryAfterMs: 12_000 })]);
    await expect(runWithRetry(op.attempt, policy, clock)).resolves.toBe('ok');
    expect(sleeps).toEqual([12_000]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const { clock, sleeps } = fakeClock();
    const last = new NetworkError('fifth');
    const op = failing([new NetworkError('1'), new NetworkError('2'), new NetworkError('3'), new NetworkError('4'), last]);
    await expect(runWithRetry(op.attempt, policy, clock)).rejects.toBe(last);
    expect(op.calls).toHaveLength(5);
    expect(sleeps).toHaveLength(4);
  });

  it('gives up when the rate limit wait would exceed maxElapsedMs', async () => {
    const { clock, sleeps } = fakeClock();
    const error = new RateLimitedError(429, 'Too Many Requests', 'Rate limit exceeded. Try again later.', { retryAfterMs: 3_600_000 });
    await expect(runWithRetry(failing([error]).attempt, policy, clock)).rejects.toBe(error);
    expect(sleeps).toEqual([]);
  });

  it('never retries 401 or 404', async () => {
    for (const error of [new UnauthorizedError(401, 'Unauthorized', 'Invalid API key'), new NotFoundError(404, 'Not Found', 'Data not found')]) {
      const { clock } = fakeClock();
      const op = failing([error]);
      await expect(runWithRetry(op.attempt, policy, clock)).rejects.toBe(error);
      expect(op.calls).toEqual([1]);
    }
  });

  it('stops waiting when the signal aborts, rejecting with its reason', async () => {
    const controller = new AbortController();
    const clock: Clock = {
      now: () => 0,
      random: () => 0.5,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
    };
    const op = failing([new NetworkError('down')]);
    const pending = runWithRetry(op.attempt, policy, clock, controller.signal);
    await Promise.resolve();
    controller.abort(new Error('user left the page'));
    await expect(pending).rejects.toThrow('user left the page');
    expect(op.calls).toEqual([1]);
  });
});
