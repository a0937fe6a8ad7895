import type { Middleware } from 'koa';
import { isPubstreamError, RateLimitedError, STATUS_TEXT } from '@pubstream/domain';
import type { Logger } from '@pubstream/observability';

const errorBody = (status: number, message: string): string => JSON.stringify({ error: STATUS_TEXT[status] ?? 'Error', message });

/** The status and message a caller sees for any thrown value. */
const describe = (error: unknown): { status: number; message: string; internal: boolean } => {
  if (isPubstreamError(error)) {
    return { status: error.status, message: error.expose ? error.message : (STATUS_TEXT[error.status] ?? 'Error'), internal: error.status >= 500 };
  }
  // Body-parser (co-body / raw-body) errors carry a status and a type.
  const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
  if (type === 'entity.too.large' || status === 413) return { status: 413, message: 'Request body is larger than 1 MiB', internal: false };
  if (type === 'entity.parse.failed' || (error instanceof SyntaxError && status === 400)) return { status: 400, message: 'Request body is not valid JSON', internal: false };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return { status: 415, message: 'Unsupported body encoding', internal: false };
  if (typeof status === 'number' && status >= 400 && status < 500 && STATUS_TEXT[status]) {
    return { status, message: STATUS_TEXT[status] ?? 'Error', internal: false };
  }
  return { status: 500, message: 'Internal Server Error', internal: true };
};

/**
 * Registered first: renders every failure as `{error, message}` (DESIGN.md §6), including
 * unknown routes (404) and wrong methods (405, with Allow), and never shows internals of a 500.
 * Headers already set (rate limits, CORS) stay on the error response.
 */
export const errorMiddleware = (logger: Logger): Middleware =>
  async function renderErrors(ctx, next) {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) {
          ctx.status = 404;
          ctx.type = 'application/json';
          ctx.body = errorBody(404, `No route for ${ctx.method} ${ctx.path}`);
        } else if (ctx.status === 405) {
          ctx.status = 405;
          ctx.type = 'application/json';
          ctx.body = errorBody(405, `Method ${ctx.method} not allowed; allowed: ${ctx.response.get('Allow')}`);
        } else if (ctx.status === 501) {
          ctx.status = 405;
          ctx.type = 'application/json';
          ctx.body = errorBody(405, `Method ${ctx.method} not allowed`);
        }
      }
    } catch (error) {
      const { status, message, internal } = describe(error);
      if (internal) logger.error({ err: error, method: ctx.method, route: ctx._matchedRoute ?? null }, 'request failed');
      else if (status === 503) logger.warn({ err: error, method: ctx.method, route: ctx._matchedRoute ?? null }, 'backend unavailable');
      if (error instanceof RateLimitedError && error.retryAfterSeconds !== null) ctx.set('Retry-After', String(error.retryAfterSeconds));
      if (status === 503) ctx.set('Retry-After', '1');
      ctx.remove('ETag');
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = errorBody(status, message);
    }
  };
