import type Router from '@koa/router';
import { apiReference, mountRoute, respondReadiness, type Readiness } from '@pubstream/http';
import type { Registry } from 'prom-client';
import { publicOpenApiDocument } from './publicOpenApiDocument.js';

/**
 * Liveness, readiness (apiReadiness.ts) and Prometheus metrics on the router, where their
 * contracts (libs/http operationsContracts.ts) say; /openapi.json and /docs come from `apiReference`.
 */
export const operationsRoutes = (router: Router, deps: { readiness: Readiness; metrics: Registry }): void => {
  mountRoute(router, { method: 'get', path: '/healthz' }, (ctx) => {
    ctx.body = { status: 'ok' };
  });
  mountRoute(router, { method: 'get', path: '/readyz' }, async (ctx) => respondReadiness(ctx, await deps.readiness.report()));
  mountRoute(router, { method: 'get', path: '/metrics' }, async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });
};

/** GET /openapi.json and /docs of the public port. */
export const publicApiReference = () => apiReference({ document: publicOpenApiDocument(), title: 'Pubstream public API' });
