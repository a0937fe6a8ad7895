import type { Middleware } from 'koa';
import { normalizePath } from './normalizePath.js';

/**
 * Rewrites `ctx.path` to its normal form before any check or router runs, so that they all judge
 * the same path (docs/security.md). Register it after the error middleware: a malformed path
 * throws MalformedPathError (400).
 */
export const normalizePathMiddleware = (): Middleware => async (ctx, next) => {
  const normalized = normalizePath(ctx.path);
  if (normalized !== ctx.path) ctx.path = normalized;
  await next();
};
