import type { Middleware } from 'koa';
import { isDashboardPath } from './dashboard/dashboardPaths.js';

/**
 * Who may reach a request of the admin port: `public` (health probes), `dashboard` (the
 * dashboard's entrance checks its session cookie) or `token` (`Authorization: Bearer
 * $ADMIN_TOKEN`). Default deny: any path not named here, known or not, needs the token.
 */
export type AdminAccess = 'public' | 'dashboard' | 'token';

/** Classifies a request by its normalised path (libs/http normalizePath); case-sensitive, like the routers. */
export const adminAccessFor = (method: string, path: string): AdminAccess => {
  if ((method === 'GET' || method === 'HEAD') && (path === '/healthz' || path === '/readyz')) return 'public';
  if (isDashboardPath(path)) return 'dashboard';
  return 'token';
};

/**
 * The one authentication gate of the admin port, registered after path normalisation and before
 * every route: requests that need the token go through `checkToken` (docs/security.md).
 */
export const adminGate = (checkToken: Middleware): Middleware => async (ctx, next) =>
  adminAccessFor(ctx.method, ctx.path) === 'token' ? checkToken(ctx, next) : next();
