import type { HttpMetrics } from '@pubstream/observability';
import type { Middleware } from 'koa';

/** Counts and times every request by method, matched route pattern (never the raw path) and status. */
export const requestMetrics =
  (http: HttpMetrics): Middleware =>
  async (ctx, next) => {
    const end = http.duration.startTimer();
    try {
      await next();
    } finally {
      const labels = { method: ctx.method, route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched', status: String(ctx.status) };
      http.requests.inc(labels);
      end(labels);
    }
  };
