import { hostName } from '@pubstream/config';
import { MisdirectedRequestError } from '@pubstream/domain';
import type { Middleware } from 'koa';

/**
 * Refuses requests whose Host header is not one of `allowed` (hostName form, `['*']`: any) with
 * 421, before anything else looks at them. A browser page on another name that was rebound to
 * this address (DNS rebinding) sends its own name as Host, so it reaches nothing (docs/security.md).
 */
export const allowedHosts = (allowed: readonly string[]): Middleware => {
  const anyHost = allowed.includes('*');
  const names = new Set(allowed);
  return async (ctx, next) => {
    if (!anyHost) {
      const host = hostName(ctx.get('host'));
      if (host === null || !names.has(host)) {
        throw new MisdirectedRequestError('This admin server does not answer for this Host name; add it to ADMIN_ALLOWED_HOSTS if it is yours');
      }
    }
    await next();
  };
};
