import type { Logger } from '@pubstream/observability';
import type { Context, Middleware } from 'koa';
import { describeFailure } from './describeFailure.js';
import { echoInput } from './echoInput.js';
import { requestLoggerOf } from './requestContext.js';
import { statusName } from './statusName.js';

export interface ErrorMiddlewareOptions {
  readonly logger: Logger;
  /** Sent as `WWW-Authenticate` with every 401 (the admin API's `Bearer realm="…"` challenge). */
  readonly wwwAuthenticate?: string;
}

const render = (ctx: Context, status: number, message: string): void => {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ error: statusName(status), message });
};

/**
 * Requests that reached no route (404) or the wrong method (405/501, Allow set by the router), and
 * the router's empty `200` to an `OPTIONS` (its `Allow` says it all): `204 No Content`.
 */
const renderUnanswered = (ctx: Context): void => {
  if (ctx.respond === false) return;
  if (ctx.method === 'OPTIONS' && ctx.status === 200 && (ctx.body === '' || ctx.body === undefined || ctx.body === null)) {
    ctx.status = 204;
    return;
  }
  if (ctx.body !== undefined && ctx.body !== null) return;
  const method = echoInput(ctx.method);
  if (ctx.status === 404) render(ctx, 404, `No route for ${method} ${echoInput(ctx.path)}`);
  else if (ctx.status === 405) render(ctx, 405, `Method ${method} not allowed; allowed: ${ctx.response.get('Allow')}`);
  else if (ctx.status === 501) render(ctx, 405, `Method ${method} not allowed`);
};

/**
 * The one error middleware of both APIs, registered first (docs/security.md): every failure is
 * `{error, message}` with the status name in `error` and one wording per failure; server faults
 * show only the status name and are logged; headers already set (rate limits, CORS) stay.
 */
export const errorMiddleware = (options: ErrorMiddlewareOptions): Middleware =>
  async function renderErrors(ctx, next) {
    try {
      await next();
      renderUnanswered(ctx);
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.logLevel !== null) {
        const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
        const fields = { err: error, method: ctx.method, url: echoInput(ctx.originalUrl, 2048), route: route === undefined ? null : String(route) };
        requestLoggerOf(ctx, options.logger)[failure.logLevel](fields, failure.logLevel === 'warn' ? 'backend unavailable' : 'request failed');
      }
      // A response that has started (a stream) cannot become an error answer.
      if (ctx.headerSent || !ctx.writable) return;
      if (failure.retryAfterSeconds !== null && !ctx.response.get('Retry-After')) ctx.set('Retry-After', String(failure.retryAfterSeconds));
      if (failure.status === 401 && options.wwwAuthenticate !== undefined) ctx.set('WWW-Authenticate', options.wwwAuthenticate);
      ctx.remove('ETag');
      ctx.remove('Content-Encoding');
      render(ctx, failure.status, failure.message);
    }
  };
