/** Base class of every error the client throws for a failed request. */
export class PubstreamError extends Error {
  /** HTTP status, or 0 when no response was received. */
  readonly status: number;
  /** Status name from the response body (`Not Found`, `Too Many Requests`, …). */
  readonly error: string;

  constructor(status: number, error: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.error = error;
  }
}

/** 400: invalid request parameters (for example an invalid dataId or an unknown sort field). */
export class BadRequestError extends PubstreamError {}

/** 401: missing, invalid or deleted API key. */
export class UnauthorizedError extends PubstreamError {}

/** 403: the key does not allow the requesting domain, or the plan lacks a feature. */
export class ForbiddenError extends PubstreamError {}

/** 404: the item or collection does not exist. */
export class NotFoundError extends PubstreamError {}

/**
 * 410: the position asked for (`since` of the changes feed) is older than the history the server
 * keeps: re-read the collection, then follow its changes from the new position.
 */
export class PositionExpiredError extends PubstreamError {}

/** 429: the key's rate limit or the plan's monthly quota is exhausted. */
export class RateLimitedError extends PubstreamError {
  /** When the rate window resets, when the server said so. */
  readonly resetAt: Date | undefined;
  /** How long the server asked to wait (Retry-After, else X-RateLimit-Reset), when known. */
  readonly retryAfterMs: number | undefined;

  constructor(
    status: number,
    error: string,
    message: string,
    timing: { resetAt?: Date | undefined; retryAfterMs?: number | undefined },
    options?: { cause?: unknown },
  ) {
    super(status, error, message, options);
    this.resetAt = timing.resetAt;
    this.retryAfterMs = timing.retryAfterMs;
  }
}

/** 5xx: the server failed. */
export class ServerError extends PubstreamError {}

/** 503: the service is temporarily unavailable (a backend is down); retried automatically. */
export class ServiceUnavailableError extends ServerError {}

/** No HTTP response: connection refused or reset, DNS failure, CORS refusal in a browser. */
export class NetworkError extends PubstreamError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(0, 'Network Error', message, options);
  }
}
