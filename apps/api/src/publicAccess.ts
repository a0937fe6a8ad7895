import type { Context } from 'koa';
import { authorizeKey, checkRateLimits, type AccessGrant, type RateLimiter } from '@pubstream/access';
import type { ChangeStream, ChangeSubscription } from '@pubstream/change-stream';
import { createMissConfirmation, type CollectionRecord, type KeyRecord, type KeyStore, type PlanRecord, type ReadModel } from '@pubstream/read-model';
import { createAccessCaches } from './accessCaches.js';
import { backendCall } from './http/backendCall.js';
import { applyCorsHeaders } from './http/cors.js';
import type { UsageRecorder } from './usageRecorder.js';

export interface PublicAccessConfig {
  readonly acceptTestKeys: boolean;
  readonly requireBrowserOrigin: boolean;
  /**
   * How long key, plan and collection records may be served from this node's cache when a
   * change message is missed (default 1000 ms). 0 disables the caches: sensible when the read
   * model is in memory, where a lookup costs nothing.
   */
  readonly cacheTtlMs?: number;
}

/** What every keyed route, /subscribe included, shares: one key, domain, plan, CORS and rate-limit check. */
export interface PublicAccess {
  /** 401/403 as docs/public-api.md, "Keys and domains", says; also returns the project's plan. */
  authorize(params: { apiKey: string | undefined; origin: string | undefined; referer: string | undefined }): Promise<AccessGrant & { plan: PlanRecord }>;
  /** Counts the request: sets X-RateLimit-* on ctx, throws 429 when over. */
  consumeRate(ctx: Context, key: KeyRecord, plan: PlanRecord): Promise<void>;
  /** One metered call (buffered). */
  recordUsage(keyId: string): void;
  /** Collection record by slug through the per-node cache (null: a caught-up read model does not have it). */
  getCollection(slug: string): Promise<CollectionRecord | null>;
  /**
   * Call before answering "not found" from a read-model miss: 503 (ServiceUnavailableError) unless
   * the read model is caught up (docs/read-models.md, "Unknown is not missing"). Unknown keys and
   * collections and a missing plan get it inside the caches' loads (accessCaches.ts).
   */
  confirmMiss(): Promise<void>;
  /**
   * Authorizes a keyed public request and sets `Vary` for the headers the check reads (before the
   * check, so refusals carry it too; see varyOnAccess) and, for an origin the key allows, the CORS headers. The key comes from `X-API-Key`, or on
   * /subscribe from the `apiKey` query parameter (a browser's EventSource cannot set headers).
   */
  authorizeRequest(ctx: Context, keyFrom?: 'header' | 'query'): Promise<AccessGrant & { plan: PlanRecord }>;
  /** Why cache invalidations may not be arriving now (for /readyz); null when the change stream is healthy. */
  changeStreamProblem(): string | null;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const createPublicAccess = (deps: {
  readModel: Pick<ReadModel, 'getCollection' | 'isCaughtUp'>;
  keys: Pick<KeyStore, 'getKeyByHash' | 'getPlan'>;
  changeStream: ChangeStream;
  rateLimiter: RateLimiter;
  usage: UsageRecorder;
  config: PublicAccessConfig;
}): PublicAccess => {
  const { config } = deps;
  // A key is refused (401), a collection missing (404), only when a caught-up read model does not
  // know it; only misses pay the check, inside the caches' loads (accessCaches.ts).
  const misses = createMissConfirmation(() => backendCall(deps.readModel.isCaughtUp()));
  const caches = createAccessCaches({ readModel: deps.readModel, keys: deps.keys }, config.cacheTtlMs ?? 1_000, misses);
  let subscription: ChangeSubscription | null = null;

  const authorize: PublicAccess['authorize'] = async (params) => {
    const [grant, plan] = await Promise.all([
      authorizeKey(params, { getKey: caches.keys.get, acceptTestKeys: config.acceptTestKeys, requireBrowserOrigin: config.requireBrowserOrigin }),
      caches.plans.get('plan'),
    ]);
    return { ...grant, plan };
  };

  return {
    authorize,
    async consumeRate(ctx, key, plan) {
      const decision = await checkRateLimits(key, { rateLimiter: deps.rateLimiter, monthlyQuota: plan.monthlyQuota });
      ctx.set('X-RateLimit-Limit', String(decision.window.limit));
      ctx.set('X-RateLimit-Remaining', String(decision.window.remaining));
      ctx.set('X-RateLimit-Reset', String(decision.window.resetAt));
      if (decision.rejection) throw decision.rejection;
    },
    recordUsage: (keyId) => deps.usage.record(keyId),
    getCollection: (slug) => caches.collections.get(slug),
    confirmMiss: () => misses.confirm(),
    async authorizeRequest(ctx, keyFrom = 'header') {
      varyOnAccess(ctx, keyFrom);
      const grant = await authorize({ apiKey: apiKeyOf(ctx, keyFrom), origin: ctx.headers.origin, referer: ctx.headers.referer });
      applyCorsHeaders(ctx, grant.corsOrigin);
      return grant;
    },
    changeStreamProblem: () => subscription?.problem?.() ?? null,
    async start() {
      subscription = await deps.changeStream.subscribe({ onMessages: caches.onMessages, onGap: caches.onGap });
    },
    async close() {
      await subscription?.close();
      subscription = null;
    },
  };
};

/**
 * The request headers that change a keyed answer (docs/public-api.md, "Caching and compression"):
 * Origin and Referer (the requesting domain: CORS, 403) and the key (401, 403, 429, rate-limit
 * headers) when it comes in X-API-Key; on /subscribe it is in the URL, which a cache keys on anyway.
 */
export const varyOnAccess = (ctx: Pick<Context, 'vary'>, keyFrom: 'header' | 'query'): void => {
  ctx.vary(keyFrom === 'header' ? ACCESS_VARY_WITH_KEY : ACCESS_VARY);
};

const ACCESS_VARY = ['Origin', 'Referer'];
const ACCESS_VARY_WITH_KEY = ['Origin', 'Referer', 'X-API-Key'];

/** The key of a request: `X-API-Key`, or on /subscribe the first `apiKey` query parameter. */
export const apiKeyOf = (ctx: Pick<Context, 'query' | 'get'>, keyFrom: 'header' | 'query'): string | undefined => {
  if (keyFrom === 'header') return ctx.get('X-API-Key') || undefined;
  const fromQuery = ctx.query.apiKey;
  return Array.isArray(fromQuery) ? fromQuery[0] : fromQuery;
};
