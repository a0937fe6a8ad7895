/**
 * The error hierarchy of the whole service. Each error knows its HTTP status; the edges
 * (Koa error middleware, CLI) render it as `{error, message}`. `expose: false` errors show
 * only the status text to callers.
 */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class PubstreamError extends Error {
  readonly status: number;
  readonly expose: boolean;
  constructor(status: number, message: string, options?: { cause?: unknown; expose?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.expose = options?.expose ?? status < 500;
  }
  /** The status name, used as the `error` field of JSON error bodies. */
  get error(): string {
    return STATUS_TEXT[this.status] ?? 'Error';
  }
}

export class ValidationError extends PubstreamError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(400, message, options);
  }
}
export class UnauthorizedError extends PubstreamError {
  constructor(message = 'Invalid API key') {
    super(401, message);
  }
}
export class ForbiddenError extends PubstreamError {
  constructor(message = 'Domain not allowed for this API key') {
    super(403, message);
  }
}
export class NotFoundError extends PubstreamError {
  constructor(message = 'Data not found') {
    super(404, message);
  }
}
/** A business-rule conflict (the thing already exists, belongs elsewhere, …). */
export class ConflictError extends PubstreamError {
  constructor(message: string) {
    super(409, message);
  }
}
/** Optimistic concurrency: the stream moved on since it was read. */
export class ConcurrencyError extends PubstreamError {
  readonly streamName: string;
  readonly expected: string;
  readonly actual: string;
  constructor(streamName: string, expected: string, actual: string, options?: { cause?: unknown }) {
    super(409, `Concurrent write to ${streamName}: expected revision ${expected}, found ${actual}`, options);
    this.streamName = streamName;
    this.expected = expected;
    this.actual = actual;
  }
}
/** What was asked for is no longer kept (a position older than the change history, docs/public-api.md). */
export class GoneError extends PubstreamError {
  constructor(message: string) {
    super(410, message);
  }
}
export class PayloadTooLargeError extends PubstreamError {
  constructor(message = 'Request body is larger than 1 MiB') {
    super(413, message);
  }
}
export class UnsupportedMediaTypeError extends PubstreamError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}
/** The request named a Host this server does not answer for (DNS rebinding, docs/security.md). */
export class MisdirectedRequestError extends PubstreamError {
  constructor(message: string) {
    super(421, message);
  }
}
/** Well-formed, but cannot be processed as asked (an Idempotency-Key reused for another request). */
export class UnprocessableEntityError extends PubstreamError {
  constructor(message: string) {
    super(422, message);
  }
}
export class RateLimitedError extends PubstreamError {
  readonly retryAfterSeconds: number | null;
  constructor(message: string, retryAfterSeconds: number | null) {
    super(429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
/** A backend (Redis, Kafka, the event store) is unreachable; callers may retry. */
export class ServiceUnavailableError extends PubstreamError {
  constructor(message = 'Service temporarily unavailable, try again shortly', options?: { cause?: unknown }) {
    super(503, message, { ...options, expose: true });
  }
}

export const isPubstreamError = (value: unknown): value is PubstreamError => value instanceof PubstreamError;
