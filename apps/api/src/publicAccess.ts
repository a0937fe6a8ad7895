import type { Context } from 'koa';
import { authorizeKey, checkRateLimits, createExpiringCache, createKeyCache, type AccessGrant, type RateLimiter } from '@pubstream/access';
import type { ChangeMessage, ChangeStream, ChangeSubscription } from '@pubstream/change-stream';
import { DEFAULT_PLAN } from '@pubstream/domain';
import type { CollectionRecord, KeyRecord, PlanRecord, ReadModel } from '@pubstream/read-model';
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
  /** Collection record by slug through the per-node cache (null: unknown). */
  getCollection(slug: string): Promise<CollectionRecord | null>;
  /**
   * Authorizes a keyed public request and sets `Vary: Origin` (before the check, so refusals carry
   * it) and, for an origin the key allows, the CORS headers. The key comes from `X-API-Key`, or on
   * /subscribe from the `apiKey` query parameter (a browser's EventSource cannot set headers).
   */
  authorizeRequest(ctx: Context, keyFrom?: 'header' | 'query'): Promise<AccessGrant & { plan: PlanRecord }>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const FALLBACK_PLAN: PlanRecord = { plan: DEFAULT_PLAN, monthlyQuota: null, version: 0 };

export const createPublicAccess = (deps: {
  readModel: ReadModel;
  changeStream: ChangeStream;
  rateLimiter: RateLimiter;
  usage: UsageRecorder;
  config: PublicAccessConfig;
}): PublicAccess => {
  const { readModel, config } = deps;
  const ttlMs = config.cacheTtlMs ?? 1_000;
  const keys = createKeyCache({ ttlMs, load: (hash) => backendCall(readModel.getKeyByHash(hash)) });
  const plans = createExpiringCache({ ttlMs, load: async () => (await backendCall(readModel.getPlan())) ?? FALLBACK_PLAN });
  const collections = createExpiringCache({ ttlMs, load: (slug) => backendCall(readModel.getCollection(slug)) });
  let subscription: ChangeSubscription | null = null;

  const onMessages = (messages: readonly ChangeMessage[]): void => {
    for (const message of messages) {
      if (message.kind === 'key') keys.invalidate(message.keyHash);
      else if (message.kind === 'plan') plans.clear();
      else if (message.kind === 'collection') collections.invalidate(message.slug);
    }
  };

  const authorize: PublicAccess['authorize'] = async (params) => {
    const [grant, plan] = await Promise.all([
      authorizeKey(params, { getKey: keys.get, acceptTestKeys: config.acceptTestKeys, requireBrowserOrigin: config.requireBrowserOrigin }),
      plans.get('plan'),
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
    getCollection: (slug) => collections.get(slug),
    async authorizeRequest(ctx, keyFrom = 'header') {
      ctx.vary('Origin');
      const fromQuery = ctx.query.apiKey;
      const grant = await authorize({
        apiKey: keyFrom === 'query' ? (Array.isArray(fromQuery) ? fromQuery[0] : fromQuery) : ctx.get('X-API-Key') || undefined,
        origin: ctx.headers.origin,
        referer: ctx.headers.referer,
      });
      applyCorsHeaders(ctx, grant.corsOrigin);
      return grant;
    },
    async start() {
      subscription = await deps.changeStream.subscribe({
        onMessages,
        onGap: () => {
          keys.clear();
          plans.clear();
          collections.clear();
        },
      });
    },
    async close() {
      await subscription?.close();
      subscription = null;
    },
  };
};
