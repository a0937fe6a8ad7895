import type { Context, Middleware } from 'koa';
import type { AccessGrant } from '@pubstream/access';
import { matchesIfNoneMatch } from '../http/etag.js';
import type { PublicAccess } from '../publicAccess.js';

export interface Reply {
  /** The JSON body, serialized once. */
  readonly body: string;
  /** Weak ETag for conditional GETs; null when the reply has none. */
  readonly etag: string | null;
  /** The log position the reply reflects: `X-Position` (docs/public-api.md, Positions). */
  readonly position?: number;
}

/**
 * Wraps a public read: key and domain check first (401/403), then the rate limit and the data
 * read run concurrently (with Redis, one pipelined round trip), then the reply or 304.
 */
export const keyedRoute = (access: PublicAccess, load: (ctx: Context, grant: AccessGrant) => Promise<Reply>): Middleware =>
  async function keyed(ctx) {
    const grant = await access.authorizeRequest(ctx);
    const reply = load(ctx, grant);
    // Handled below; this only keeps an early rejection from being reported as unhandled.
    reply.catch(() => undefined);
    await access.consumeRate(ctx, grant.key, grant.plan);
    access.recordUsage(grant.key.keyId);
    const { body, etag, position } = await reply;
    // A record written before positions existed has none until the next rebuild (docs/decisions.md).
    if (position !== undefined && Number.isFinite(position)) ctx.set('X-Position', String(position));
    if (etag !== null) {
      ctx.set('ETag', etag);
      const ifNoneMatch = ctx.get('If-None-Match');
      if (ifNoneMatch && matchesIfNoneMatch(ifNoneMatch, etag)) {
        ctx.status = 304;
        return;
      }
    }
    ctx.status = 200;
    // The full header value, not ctx.type: skips Koa's per-request MIME lookup.
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = body;
  };
