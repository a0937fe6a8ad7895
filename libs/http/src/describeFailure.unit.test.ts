import { ForbiddenError, NotFoundError, PubstreamError, RateLimitedError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { describeFailure } from './describeFailure.js';
import { MAX_MESSAGE_CHARS } from './echoInput.js';

describe('describeFailure', () => {
  it('keeps the messages the specification fixes, byte for byte', () => {
    expect(describeFailure(new ValidationError('Invalid dataId format'))).toMatchObject({ status: 400, message: 'Invalid dataId format', logLevel: null });
    expect(describeFailure(new UnauthorizedError())).toMatchObject({ status: 401, message: 'Invalid API key' });
    expect(describeFailure(new ForbiddenError())).toMatchObject({ status: 403, message: 'Domain not allowed for this API key' });
    expect(describeFailure(new NotFoundError())).toMatchObject({ status: 404, message: 'Data not found' });
    expect(describeFailure(new RateLimitedError('Rate limit exceeded. Try again in 60 seconds.', 60))).toEqual({
      status: 429,
      message: 'Rate limit exceeded. Try again in 60 seconds.',
      logLevel: null,
      retryAfterSeconds: 60,
    });
    expect(describeFailure(new RateLimitedError('Rate limit exceeded. Try again later.', null))).toMatchObject({ message: 'Rate limit exceeded. Try again later.', retryAfterSeconds: null });
  });

  it('shows only the status name of a server fault and asks for it to be logged', () => {
    expect(describeFailure(new Error('secret connection string redis://x'))).toEqual({ status: 500, message: 'Internal Server Error', logLevel: 'error', retryAfterSeconds: null });
    expect(describeFailure(new PubstreamError(500, 'internal detail'))).toMatchObject({ status: 500, message: 'Internal Server Error', logLevel: 'error' });
    expect(describeFailure(new RangeError('Maximum call stack size exceeded'))).toMatchObject({ status: 500, message: 'Internal Server Error' });
    expect(describeFailure('a thrown string')).toMatchObject({ status: 500 });
    expect(describeFailure(null)).toMatchObject({ status: 500 });
  });

  it('answers an unavailable backend with 503, Retry-After and a warning', () => {
    expect(describeFailure(new ServiceUnavailableError())).toEqual({
      status: 503,
      message: 'Service temporarily unavailable, try again shortly',
      logLevel: 'warn',
      retryAfterSeconds: 1,
    });
  });

  it('takes the status of Koa and http-errors 4xx errors, and their message only when exposed', () => {
    expect(describeFailure(Object.assign(new Error('Bad thing'), { status: 400, expose: true }))).toMatchObject({ status: 400, message: 'Bad thing' });
    expect(describeFailure(Object.assign(new Error('hidden'), { statusCode: 409, expose: false }))).toMatchObject({ status: 409, message: 'Conflict' });
    expect(describeFailure(Object.assign(new Error('x'), { status: 502, expose: true }))).toMatchObject({ status: 500, message: 'Internal Server Error' });
    expect(describeFailure(Object.assign(new Error('aborted'), { type: 'request.aborted', status: 400 }))).toMatchObject({ status: 400, message: 'Request aborted' });
  });

  it('bounds every message', () => {
    expect(describeFailure(new ValidationError('x'.repeat(50_000))).message.length).toBe(MAX_MESSAGE_CHARS + 1);
  });
});
