import type { Logger } from '@pubstream/observability';
import { isPubstreamError, RateLimitedError, STATUS_TEXT } from '@pubstream/domain';
import type { Middleware } from 'koa';

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
  type?: unknown;
}

const statusOf = (error: HttpLikeError): number => {
  const status = typeof error.status === 'number' ? error.status : typeof error.statusCode === 'number' ? error.statusCode : 500;
  return status >= 400 && status <= 599 ? status : 500;
};

/** Messages for failures raised by body parsers and Koa itself, in our own words. */
const messageOf = (error: HttpLikeError, status: number): string => {
  if (error.type === 'entity.parse.failed') return 'Malformed JSON body';
  if (error.type === 'entity.too.large') return 'Request body is larger than 1 MiB';
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return 'Unsupported body encoding';
  if (error.type === 'request.aborted') return 'Request aborted';
  if (status === 405) return 'Method not allowed';
  if (status === 501) return 'Method not implemented';
  if (error.expose === true && typeof error.message === 'string') return error.message;
  return STATUS_TEXT[status] ?? 'Error';
};

/**
 * The one error middleware, registered first: every failure becomes `{error, message}` with the
 * status name in `error`. Server faults show only the status text and are logged.
 */
export const errorMiddleware = (logger: Logger): Middleware => async (ctx, next) => {
  try {
    await next();
  } catch (caught) {
    const error = (caught ?? {}) as HttpLikeError;
    let status: number;
    let message: string;
    if (isPubstreamError(caught)) {
      status = caught.status;
      message = caught.expose ? caught.message : (STATUS_TEXT[status] ?? 'Error');
    } else {
      status = statusOf(error);
      message = messageOf(error, status);
    }
    if (status >= 500) logger.error({ err: caught, method: ctx.method, url: ctx.originalUrl }, 'admin request failed');
    ctx.status = status;
    ctx.type = 'application/json';
    ctx.body = { error: STATUS_TEXT[status] ?? 'Error', message };
    if (status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="pubstream-admin"');
    if (caught instanceof RateLimitedError && caught.retryAfterSeconds !== null) ctx.set('Retry-After', String(caught.retryAfterSeconds));
  }
};
