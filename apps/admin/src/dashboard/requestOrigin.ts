import type { Context } from 'koa';

/**
 * This server's own origin as the browser sees it. The scheme comes from `X-Forwarded-Proto`
 * when a TLS proxy sets it (a forged value only makes the check stricter for the forger).
 */
export const ownOrigin = (ctx: Context): string => `${requestScheme(ctx)}://${ctx.get('host')}`;

export const requestScheme = (ctx: Context): 'http' | 'https' => {
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  if (forwarded === 'https' || forwarded === 'http') return forwarded;
  return ctx.secure ? 'https' : 'http';
};

/**
 * True when a state-changing request comes from a page of this origin: `Origin`, when sent, must
 * be ours, `Sec-Fetch-Site`, when sent, must be `same-origin`, and at least one of them must be
 * there (every current browser sends both on a form POST). Another port on the same host is
 * another origin: SameSite alone would let it through, this check does not.
 */
export const isSameOriginRequest = (headers: { origin: string; secFetchSite: string }, selfOrigin: string): boolean => {
  const { origin, secFetchSite } = headers;
  if (origin === '' && secFetchSite === '') return false;
  if (origin !== '' && origin.toLowerCase() !== selfOrigin.toLowerCase()) return false;
  if (secFetchSite !== '' && secFetchSite !== 'same-origin') return false;
  return true;
};

export const isSameOrigin = (ctx: Context): boolean =>
  isSameOriginRequest({ origin: ctx.get('origin'), secFetchSite: ctx.get('sec-fetch-site') }, ownOrigin(ctx));
