import type Router from '@koa/router';
import { respondReadiness, type Readiness } from '@pubstream/http';
import type { Registry } from 'prom-client';
import { openApiDocument } from './openApiDocument.js';

const openApiJson = JSON.stringify(openApiDocument);

/** Liveness, readiness (apiReadiness.ts), Prometheus metrics and the OpenAPI document. */
export const operationsRoutes = (router: Router, deps: { readiness: Readiness; metrics: Registry }): void => {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => respondReadiness(ctx, await deps.readiness.report()));
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson;
  });
};
