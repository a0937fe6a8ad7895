import { UnauthorizedError } from '@pubstream/domain';
import { API_REFERENCE_PATHS } from '@pubstream/http';
import type { Middleware } from 'koa';
import type { AuthThrottle } from './authThrottle.js';
import { hasAdminToken } from './hasAdminToken.js';
import { clientAddress } from './clientAddress.js';
import { isDashboardPath } from './dashboard/dashboardPaths.js';
import { tooManyFailures } from './tooManyFailures.js';

/**
 * Who may reach a request of the admin port: `public` (health probes, API reference), `dashboard` (the
 * dashboard's entrance checks its session cookie) or `token` (`Authorization: Bearer
 * $ADMIN_TOKEN`). Default deny: any path not named here, known or not, needs the token.
 */
export type AdminAccess = 'public' | 'dashboard' | 'token';

/** The probes, and the API reference: it describes the routes, which docs/admin-api.md shows anyway; it holds no data. */
const PUBLIC_PATHS = new Set(['/healthz', '/readyz', ...Object.values(API_REFERENCE_PATHS)]);

/** Classifies a request by its normalised path (libs/http normalizePath); case-sensitive, like the routers. */
export const adminAccessFor = (method: string, path: string): AdminAccess => {
  if ((method === 'GET' || method === 'HEAD') && PUBLIC_PATHS.has(path)) return 'public';
  if (isDashboardPath(path)) return 'dashboard';
  return 'token';
};

/**
 * The one authentication gate of the admin port, registered after path normalisation and before
 * every route (docs/security.md). A request that needs the token is refused with 429 while its
 * address is blocked (even with the right token: otherwise guessing goes on), else with 401
 * without the right token, which counts as a failure (and may start a block: 429).
 */
export const adminGate = (options: { adminToken: string; throttle: AuthThrottle }): Middleware => async (ctx, next) => {
  if (adminAccessFor(ctx.method, ctx.path) !== 'token') return next();
  const address = clientAddress(ctx);
  const blockedFor = await options.throttle.blockedFor(address);
  if (blockedFor > 0) throw tooManyFailures(blockedFor);
  if (!hasAdminToken(ctx, options.adminToken)) {
    const blockSeconds = await options.throttle.recordFailure(address);
    throw blockSeconds > 0 ? tooManyFailures(blockSeconds) : new UnauthorizedError('Missing or invalid admin token');
  }
  await next();
};
