import type { Middleware } from 'koa';

/** `Cache-Control: no-store` on every admin answer: keys, tokens and operator data stay out of caches (docs/security.md). */
export const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};
