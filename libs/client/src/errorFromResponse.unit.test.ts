import { describe, expect, it } from 'vitest';
import { errorFromResponse } from './errorFromResponse.js';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PubstreamError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './errors.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const failed = (status: number, body: unknown, headers: Record<string, string> = {}, statusText = '') =>
  errorFromResponse({ status, statusText, headers: new Headers(headers), body }, now);

describe('errorFromResponse', () => {
  it.each([
    [400, BadRequestError, 'Bad Request', 'Invalid dataId format'],
    [401, UnauthorizedError, 'Unauthorized', 'Invalid API key'],
    [403, ForbiddenError, 'Forbidden', 'Domain not allowed for this API key'],
    [404, NotFoundError, 'Not Found', 'Data not found'],
    [500, ServerError, 'Internal Server Error', 'Internal Server Error'],
    [503, ServiceUnavailableError, 'Service Unavailable', 'Read model unavailable'],
  ])('maps %i to its class with the body’s error and message', (status, Class, error, message) => {
    const e = failed(status, { error, message });
    expect(e).toBeInstanceOf(Class);
    expect(e).toBeInstanceOf(PubstreamError);
    expect(e).toMatchObject({ status, error, message, name: Class.name });
  });

  it('treats 503 as a server error too', () => {
    expect(failed(503, {})).toBeInstanceOf(ServerError);
  });

  it('falls back to the status text when the body is not the JSON error shape', () => {
    const e = failed(502, undefined, {}, 'Bad Gateway');
    expect(e).toBeInstanceOf(ServerError);
    expect(e).toMatchObject({ status: 502, error: 'Bad Gateway', message: 'Bad Gateway' });
    expect(failed(405, { error: 'Method Not Allowed', message: 'no' })).toMatchObject({ status: 405, error: 'Method Not Allowed' });
  });

  it('reads a 429’s wait from Retry-After seconds and its reset time from X-RateLimit-Reset', () => {
    const reset = now / 1000 + 42;
    const e = failed(429, { error: 'Too Many Requests', message: 'Rate limit exceeded. Try again in 42 seconds.' }, { 'Retry-After': '42', 'X-RateLimit-Reset': String(reset) });
    expect(e).toBeInstanceOf(RateLimitedError);
    const r = e as RateLimitedError;
    expect(r.retryAfterMs).toBe(42_000);
    expect(r.resetAt?.getTime()).toBe(reset * 1000);
  });

  it('derives the wait from X-RateLimit-Reset when Retry-After is missing', () => {
    const r = failed(429, {}, { 'X-RateLimit-Reset': String(now / 1000 + 9) }) as RateLimitedError;
    expect(r.retryAfterMs).toBe(9_000);
  });

  it('accepts Retry-After as an HTTP date', () => {
    const r = failed(429, {}, { 'Retry-After': new Date(now + 5_000).toUTCString() }) as RateLimitedError;
    expect(r.retryAfterMs).toBe(5_000);
    expect(r.resetAt?.getTime()).toBe(now + 5_000);
  });

  it('leaves the timing undefined when the server gives none (the client then backs off by itself)', () => {
    const r = failed(429, {}) as RateLimitedError;
    expect(r.retryAfterMs).toBeUndefined();
    expect(r.resetAt).toBeUndefined();
  });
});
