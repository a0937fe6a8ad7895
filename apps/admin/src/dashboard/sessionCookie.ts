import type { Context } from 'koa';
import { requestScheme } from './requestOrigin.js';

export const SESSION_COOKIE = 'pubstream_session';

/** The session id the browser sent, if any. */
export const sessionIdOf = (ctx: Context): string | undefined => {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return rest.join('=');
  }
  return undefined;
};

/**
 * The Set-Cookie value of the session cookie: HttpOnly, SameSite=Strict, Secure when `secure` is
 * true or (`auto`) the request came over HTTPS; `maxAgeSeconds` null for a browser-session cookie.
 */
export const sessionCookie = (ctx: Context, value: string, maxAgeSeconds: number | null, secure: 'auto' | boolean = 'auto'): string => {
  const isSecure = secure === true || (secure !== false && requestScheme(ctx) === 'https');
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', ...(isSecure ? ['Secure'] : []), ...(maxAgeSeconds === null ? [] : [`Max-Age=${maxAgeSeconds}`])].join('; ');
};
