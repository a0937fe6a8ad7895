import { ServiceUnavailableError } from '@pubstream/domain';
import type { Middleware } from 'koa';

/**
 * `GET|HEAD /healthz` (the process answers) and `/readyz` (its read model answers too, else 503):
 * for process managers and load balancers, public (no token, no data; docs/admin-api.md).
 */
export const healthProbes =
  (ping: () => Promise<void>): Middleware =>
  async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || (ctx.path !== '/healthz' && ctx.path !== '/readyz')) return next();
    if (ctx.path === '/readyz') {
      try {
        await ping();
      } catch (error) {
        throw new ServiceUnavailableError('The read model is not reachable', { cause: error });
      }
    }
    ctx.body = { status: 'ok' };
  };
