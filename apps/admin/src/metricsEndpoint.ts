import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';

/** `GET /metrics` in the Prometheus text format; on the admin port behind the admin token (docs/operations.md). */
export const metricsEndpoint =
  (registry: Registry): Middleware =>
  async (ctx, next) => {
    if (ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  };
