import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { toRouterPath, type RouteContract } from './routeContract.js';

/** Registers a route where its contract says (method and path), so the router and the document cannot name different routes. */
export const mountRoute = (router: Router, contract: Pick<RouteContract, 'method' | 'path'>, ...middleware: Middleware[]): void => {
  router.register(toRouterPath(contract.path), [contract.method.toUpperCase()], middleware as never);
};
