import Router from '@koa/router';
import { mountRoute, type Readiness } from '@pubstream/http';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { KeyedRouteName } from '../http/keyedRouteMatch.js';
import { operationsRoutes } from './operationsRoutes.js';
import { publicContracts } from './publicContract.js';
import { publicRoutes, type PublicRoutesDeps } from './publicRoutes.js';

/**
 * Every route of the public port's router, each where its contract says (publicContract.ts):
 * the reads, /subscribe when the node streams, and the probes and metrics. Also the keyed read
 * handlers it mounted, for the hot path (http/keyedFastPath.ts).
 */
export const createPublicRouter = (
  deps: PublicRoutesDeps & { subscribe: Middleware | null; readiness: Readiness; metrics: Registry },
): { router: Router; keyed: Record<KeyedRouteName, Middleware> } => {
  const router = new Router();
  const keyed = publicRoutes(router, deps);
  if (deps.subscribe) mountRoute(router, publicContracts.subscribe, deps.subscribe);
  operationsRoutes(router, { readiness: deps.readiness, metrics: deps.metrics });
  return { router, keyed };
};
