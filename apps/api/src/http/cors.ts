import type { Context, Middleware } from 'koa';

const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Position';

/**
 * CORS (docs/public-api.md, "CORS"; docs/decisions.md, "Public interface"). Preflights carry no key, so OPTIONS on a public path answers 204 allowing
 * GET and POST with the headers X-API-Key and Content-Type; whether the origin may actually read
 * a response is decided per request, once the key is known (see `allowOrigin`).
 */
export const corsPreflight = (): Middleware =>
  async function preflight(ctx, next) {
    if (ctx.method !== 'OPTIONS' || !(ctx.path.startsWith('/public/') || ctx.path === '/subscribe')) return next();
    ctx.status = 204;
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (origin) ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Methods', 'GET, POST');
    ctx.set('Access-Control-Allow-Headers', 'X-API-Key, Content-Type');
    ctx.set('Access-Control-Max-Age', '600');
    ctx.set('Allow', 'GET, POST, OPTIONS');
  };

/**
 * Headers of every keyed response; Access-Control-Allow-Origin only for an origin the key allows.
 * The caller has already set `Vary: Origin` (before the key check, so refusals carry it too).
 */
export const applyCorsHeaders = (ctx: Context, allowedOrigin: string | null): void => {
  ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (allowedOrigin) ctx.set('Access-Control-Allow-Origin', allowedOrigin);
};
