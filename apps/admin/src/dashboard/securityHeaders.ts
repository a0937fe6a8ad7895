import type { Context } from 'koa';

/** The Content-Security-Policy of a dashboard page: nothing but its own nonce'd style and script, and forms to itself. */
const contentSecurityPolicy = (nonce: string): string =>
  `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** The headers on every dashboard response (docs/dashboard.md, Security). */
export const setSecurityHeaders = (ctx: Context, nonce: string): void => {
  ctx.set('Content-Security-Policy', contentSecurityPolicy(nonce));
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: with it Chromium sends `Origin: null` on form posts, and the Origin check needs it.
  ctx.set('Referrer-Policy', 'same-origin');
};
