import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './errors.js';
import { defaultRetryPolicy, fullJitterDelay, nextRetryDelay } from './retryPolicy.js';

const policy = { maxAttempts: 6, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 1_000 };
const almostOne = () => 0.999999;

describe('backoff schedule', () => {
  it('doubles the jitter ceiling per failure up to maxDelayMs', () => {
    const ceilings = [1, 2, 3, 4, 5, 6].map((n) => fullJitterDelay(n, policy, almostOne) + 1);
    expect(ceilings).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('draws uniformly below the ceiling (full jitter)', () => {
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
    expect(fullJitterDelay(3, policy, () => 0.5)).toBe(200);
  });

  it('retries 429, 503 and network errors', () => {
    expect(nextRetryDelay(new ServiceUnavailableError(503, 'Service Unavailable', 'down'), 1, 0, policy, () => 0.5)).toBe(50);
    expect(nextRetryDelay(new NetworkError('refused'), 2, 0, policy, () => 0.5)).toBe(100);
    expect(nextRetryDelay(new RateLimitedError(429, 'Too Many Requests', 'slow down', {}), 1, 0, policy, () => 0.5)).toBe(50);
  });

  it('never retries 400, 401, 403, 404, other server errors or foreign errors', () => {
    const never = [
      new BadRequestError(400, 'Bad Request', 'Invalid dataId format'),
      new UnauthorizedError(401, 'Unauthorized', 'Invalid API key'),
      new ForbiddenError(403, 'Forbidden', 'Domain not allowed for this API key'),
      new NotFoundError(404, 'Not Found', 'Data not found'),
      new ServerError(500, 'Internal Server Error', 'boom'),
      new TypeError('bug'),
    ];
    for (const error of never) expect(nextRetryDelay(error, 1, 0, policy, () => 0.5)).toBeUndefined();
  });

  it('waits at least the Retry-After of a 429, plus at most baseDelayMs of jitter, even beyond maxDelayMs', () => {
    const error = new RateLimitedError(429, 'Too Many Requests', 'Rate limit exceeded. Try again in 7 seconds.', { retryAfterMs: 7_000 });
    expect(nextRetryDelay(error, 1, 0, policy, () => 0)).toBe(7_000);
    expect(nextRetryDelay(error, 1, 0, policy, almostOne)).toBe(7_099);
  });

  it('stops after maxAttempts attempts', () => {
    const error = new NetworkError('refused');
    expect(nextRetryDelay(error, 5, 0, policy, () => 0.5)).toBeDefined();
    expect(nextRetryDelay(error, 6, 0, policy, () => 0.5)).toBeUndefined();
  });

  it('does not start a wait that would end after maxElapsedMs', () => {
    const error = new RateLimitedError(429, 'Too Many Requests', 'later', { retryAfterMs: 30_000 });
    expect(nextRetryDelay(error, 1, 29_000, policy, () => 0)).toBe(30_000);
    expect(nextRetryDelay(error, 1, 31_000, policy, () => 0)).toBeUndefined();
  });

  it('has defaults that honour a full one-minute rate window', () => {
    expect(defaultRetryPolicy.maxElapsedMs).toBeGreaterThanOrEqual(60_000);
  });
});
