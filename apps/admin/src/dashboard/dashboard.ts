import Router from '@koa/router';
import type { Middleware } from 'koa';
import { collectionRoutes } from './collectionRoutes.js';
import { dashboardEntrance } from './dashboardEntrance.js';
import type { DashboardContext } from './dashboardContext.js';
import { homeRoutes } from './homeRoutes.js';
import { keyRoutes } from './keyRoutes.js';
import { planRoutes } from './planRoutes.js';
import { createSessionStore, type SessionStoreOptions } from './sessionStore.js';
import { signInRoutes } from './signInRoutes.js';
import { usageRoutes } from './usageRoutes.js';

export interface DashboardOptions {
  /**
   * The session cookie's Secure flag: `auto` (default) sets it when the request came over HTTPS,
   * directly or through a proxy that sends `X-Forwarded-Proto: https`; `true` always sets it.
   */
  readonly secureCookie?: 'auto' | boolean;
  readonly session?: Omit<SessionStoreOptions, 'now'>;
}

/**
 * The operator dashboard on the admin port: `/` and `/dashboard/*` (docs/dashboard.md). Sign-in
 * with the admin token, an HttpOnly SameSite=Strict session cookie checked once at the entrance
 * (dashboardEntrance.ts) for every page but the public ones, a CSRF token plus an Origin /
 * Sec-Fetch-Site check on every POST (formGuard.ts), server-rendered HTML under a strict CSP (no
 * build step). One module of routes per section.
 */
export const createDashboard = (context: DashboardContext, options: DashboardOptions = {}): Middleware => {
  const { service, adminToken, throttle, logger } = context;
  const sessions = createSessionStore({ now: context.now, ...options.session });
  // Case-sensitive and strict, like the gate: the admin app normalised the path before.
  const router = new Router({ sensitive: true, strict: true });
  homeRoutes(router);
  signInRoutes(router, { sessions, adminToken, throttle, logger, secureCookie: options.secureCookie });
  keyRoutes(router, { service, sessions });
  usageRoutes(router, { service, stores: context.stores, now: context.now });
  planRoutes(router, { service, sessions });
  collectionRoutes(router, { service });
  return dashboardEntrance({ sessions, throttle, logger, pages: router.routes() as unknown as Middleware });
};
