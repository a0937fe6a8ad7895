import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import { openApiDocument } from './openApiDocument.js';

const openApiJson = JSON.stringify(openApiDocument);

/** Liveness, readiness (the stores' ping), Prometheus metrics and the OpenAPI document. */
export const operationsRoutes = (router: Router, deps: { ping: () => Promise<void>; metrics: Registry }): void => {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    try {
      await deps.ping();
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { error: 'Service Unavailable', message: 'The read model is not reachable' };
    }
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson;
  });
};
