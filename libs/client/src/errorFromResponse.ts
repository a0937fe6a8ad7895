import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PositionExpiredError,
  PubstreamError,
  RateLimitedError,
  ServerError,
  ServiceUnavailableError,
  UnauthorizedError,
} from './errors.js';
import { readRateLimitTiming } from './rateLimitTiming.js';

/** The parts of a failed response needed to build the typed error. */
export interface FailedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
}

/** Maps a non-2xx response to the matching {@link PubstreamError} subclass. */
export function errorFromResponse(response: FailedResponse, nowMs: number): PubstreamError {
  const { status } = response;
  const body = isRecord(response.body) ? response.body : {};
  const error = typeof body.error === 'string' ? body.error : response.statusText || `HTTP ${status}`;
  const message = typeof body.message === 'string' ? body.message : error;
  switch (status) {
    case 400:
      return new BadRequestError(status, error, message);
    case 401:
      return new UnauthorizedError(status, error, message);
    case 403:
      return new ForbiddenError(status, error, message);
    case 404:
      return new NotFoundError(status, error, message);
    case 410:
      return new PositionExpiredError(status, error, message);
    case 429:
      return new RateLimitedError(status, error, message, readRateLimitTiming(response.headers, nowMs));
    case 503:
      return new ServiceUnavailableError(status, error, message);
    default:
      return status >= 500 ? new ServerError(status, error, message) : new PubstreamError(status, error, message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
