import type { Context, Middleware } from 'koa';
import type { AccessGrant } from '@pubstream/access';
import type { Reply, ReplyEdge } from '../http/replyEdge.js';
import type { PublicAccess } from '../publicAccess.js';

export type { Reply } from '../http/replyEdge.js';

/** What a keyed read loads: its reply (cached per version) and the log position it reflects. */
export interface Answer {
  readonly reply: Reply;
  /** `X-Position` (docs/public-api.md, Positions); none for a record written before positions existed. */
  readonly position: number | undefined;
}

/**
 * Wraps a public read: key and domain check first (401/403), then the rate limit and the data
 * read run concurrently (with Redis, one pipelined round trip), then the answer through the
 * reply edge (caching headers, 304, compression).
 */
export const keyedRoute = (access: PublicAccess, edge: ReplyEdge, load: (ctx: Context, grant: AccessGrant) => Promise<Answer>): Middleware =>
  async function keyed(ctx) {
    const grant = await access.authorizeRequest(ctx);
    const loading = load(ctx, grant);
    // Handled below; this only keeps an early rejection from being reported as unhandled.
    loading.catch(() => undefined);
    await access.consumeRate(ctx, grant.key, grant.plan);
    access.recordUsage(grant.key.keyId);
    const { reply, position } = await loading;
    await edge.send(ctx, reply, position);
  };
