import { respondReadiness, type Readiness } from '@pubstream/http';
import type { Middleware } from 'koa';

/**
 * `GET|HEAD /healthz` (the process answers) and `/readyz` (its dependencies answer too, each
 * named, else 503; docs/operations.md "Readiness"): for process managers and load balancers,
 * public (no token, no data; docs/admin-api.md).
 */
export const healthProbes =
  (readiness: Readiness): Middleware =>
  async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || (ctx.path !== '/healthz' && ctx.path !== '/readyz')) return next();
    if (ctx.path === '/readyz') return respondReadiness(ctx, await readiness.report());
    ctx.body = { status: 'ok' };
  };
