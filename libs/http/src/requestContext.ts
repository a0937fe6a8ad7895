import { randomUUID } from 'node:crypto';
import type { Logger } from '@pubstream/observability';
import type { Context, Middleware } from 'koa';

/** A client's own request id is kept when it is short and plain; anything else gets a new one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestContextOptions {
  readonly logger: Logger;
  /** One `info` line per request (method, path, status, duration): ACCESS_LOG. Default off. */
  readonly accessLog?: boolean;
  readonly newId?: () => string;
}

interface RequestState {
  requestId?: string;
  requestLogger?: Logger;
}

/** The request's id (set by `requestContext`), or undefined outside it. */
export const requestIdOf = (ctx: Context): string | undefined => (ctx.state as RequestState).requestId;

/** A logger whose lines carry the request's id; `fallback` itself outside `requestContext`. */
export const requestLoggerOf = (ctx: Context, fallback: Logger): Logger => {
  const state = ctx.state as RequestState;
  if (state.requestId === undefined) return fallback;
  // Made on first use: most requests log nothing.
  return (state.requestLogger ??= fallback.child({ requestId: state.requestId }));
};

/**
 * The outermost middleware of both APIs (docs/operations.md, request ids): takes the client's
 * `X-Request-Id` when it is sane, else makes one, echoes it on every response (refusals and
 * streams included) and puts it in every log line of the request; optionally one access-log line.
 */
export const requestContext = (options: RequestContextOptions): Middleware => {
  const newId = options.newId ?? randomUUID;
  return async function withRequestId(ctx, next) {
    const sent = ctx.get('X-Request-Id');
    const requestId = SANE_REQUEST_ID.test(sent) ? sent : newId();
    (ctx.state as RequestState).requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    if (!options.accessLog) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      requestLoggerOf(ctx, options.logger).info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
  };
};
