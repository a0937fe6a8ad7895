import Router from '@koa/router';
import { mountRoute, type Readiness } from '@pubstream/http';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { operationsRoutes } from './operationsRoutes.js';
import { publicContracts } from './publicContract.js';
import { publicRoutes, type PublicRoutesDeps } from './publicRoutes.js';

/**
 * Every route of the public port's router, each where its contract says (publicContract.ts):
 * the reads, /subscribe when the node streams, and the probes and metrics.
 */
export const createPublicRouter = (deps: PublicRoutesDeps & { subscribe: Middleware | null; readiness: Readiness; metrics: Registry }): Router => {
  const router = new Router();
  publicRoutes(router, deps);
  if (deps.subscribe) mountRoute(router, publicContracts.subscribe, deps.subscribe);
  operationsRoutes(router, { readiness: deps.readiness, metrics: deps.metrics });
  return router;
};
