import { isPubstreamError, RateLimitedError } from '@pubstream/domain';
import { clipMessage } from './echoInput.js';
import { statusName } from './statusName.js';

/** What a caller sees for a failed request, and whether the operator hears of it. */
export interface Failure {
  readonly status: number;
  readonly message: string;
  /** `error` for server faults, `warn` for an unavailable backend (503), null for the caller's mistakes. */
  readonly logLevel: 'error' | 'warn' | null;
  /** Seconds for `Retry-After`, when the failure says when to come back. */
  readonly retryAfterSeconds: number | null;
}

/** Errors thrown by Koa (`ctx.throw`, `ctx.assert`) and http-errors carry a status and `expose`. */
interface HttpLikeError {
  readonly status?: unknown;
  readonly statusCode?: unknown;
  readonly expose?: unknown;
  readonly message?: unknown;
  readonly type?: unknown;
}

const SERVER_FAULT: Failure = { status: 500, message: statusName(500), logLevel: 'error', retryAfterSeconds: null };

const logLevelOf = (status: number): Failure['logLevel'] => (status === 503 ? 'warn' : status >= 500 ? 'error' : null);

const fromHttpLike = (error: HttpLikeError): Failure => {
  const status = typeof error.status === 'number' ? error.status : typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (error.type === 'request.aborted') return { status: 400, message: 'Request aborted', logLevel: null, retryAfterSeconds: null };
  if (!Number.isInteger(status) || status < 400 || status > 599 || status >= 500) return SERVER_FAULT;
  const message = error.expose === true && typeof error.message === 'string' && error.message !== '' ? clipMessage(error.message) : statusName(status);
  return { status, message, logLevel: null, retryAfterSeconds: null };
};

/**
 * Maps anything thrown while handling a request to its answer: our errors by their status (an
 * unexposed one shows only the status name), Koa's and http-errors' 4xx by theirs, everything
 * else is a 500 that shows nothing of its cause (docs/security.md, one error middleware).
 */
export const describeFailure = (error: unknown): Failure => {
  if (isPubstreamError(error)) {
    const status = error.status >= 400 && error.status <= 599 ? error.status : 500;
    return {
      status,
      message: error.expose ? clipMessage(error.message) : statusName(status),
      logLevel: logLevelOf(status),
      retryAfterSeconds: error instanceof RateLimitedError ? error.retryAfterSeconds : status === 503 ? 1 : null,
    };
  }
  if (typeof error === 'object' && error !== null) return fromHttpLike(error as HttpLikeError);
  return SERVER_FAULT;
};
