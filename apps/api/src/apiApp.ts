import Koa from 'koa';
import type { Registry } from 'prom-client';
import { createMemoryRateLimiter, type RateLimiter, type RateLimitWindow } from '@pubstream/access';
import type { ChangeStream } from '@pubstream/change-stream';
import { createMetricsRegistry, type Logger } from '@pubstream/observability';
import { errorMiddleware, requestContext, requestMetrics } from '@pubstream/http';
import { createApiReadiness } from './apiReadiness.js';
import type { ApiStores } from './apiStores.js';
import type { CachePolicy } from './http/cachePolicy.js';
import { corsPreflight } from './http/cors.js';
import { keyedFastPath } from './http/keyedFastPath.js';
import { rateLimitRefusals } from './http/rateLimitRefusals.js';
import { createReplyEdge } from './http/replyEdge.js';
import { createMinPositionGate } from './positions/minPosition.js';
import { createPollingPositionWaiter } from './positions/pollingPositionWaiter.js';
import type { PositionWaiter } from './positions/positionWaiter.js';
import { createPublicAccess, type PublicAccess } from './publicAccess.js';
import { publicApiReference } from './routes/operationsRoutes.js';
import { createPublicRouter } from './routes/publicRouter.js';
import { createSubscribeRoute, type SubscribeRouteDeps } from './subscribe/subscribeRoute.js';
import { createUsageRecorder, type UsageRecorder } from './usageRecorder.js';

export interface ApiConfig {
  /** ACCEPT_TEST_KEYS (default true). */
  readonly acceptTestKeys: boolean;
  /** REQUIRE_BROWSER_ORIGIN (default false). */
  readonly requireBrowserOrigin: boolean;
  /** RATE_LIMIT_WINDOW: used for the default in-memory rate limiter. */
  readonly rateLimitWindow: RateLimitWindow;
  /** Staleness bound of the per-node key/plan/collection caches (default 1000 ms; 0 = no cache). */
  readonly cacheTtlMs?: number;
  /** How often buffered usage counts are written (default 1000 ms). */
  readonly usageFlushMs?: number;
  /** ACCESS_LOG: one log line per request (default false). */
  readonly accessLog?: boolean;
  /** Bound of each /readyz check (default 1000 ms; REDIS_COMMAND_TIMEOUT_MS in the processes). */
  readonly readinessTimeoutMs?: number;
  /** Cache-Control of public reads (CACHE_MAX_AGE_SECONDS, CACHE_STALE_WHILE_REVALIDATE_SECONDS; default max-age=0). */
  readonly cache?: CachePolicy;
  /** COMPRESSION_MIN_BYTES (default 1024). */
  readonly compressionMinBytes?: number;
  /** MIN_POSITION_WAIT_MS: the bound of a `?minPosition=` wait (default 2000 ms). */
  readonly minPositionWaitMs?: number;
}

export interface ApiAppDeps {
  readonly stores: ApiStores;
  /** Invalidates the per-node caches (key deletions, plan and collection changes). */
  readonly changeStream: ChangeStream;
  /** Default: in-memory, with `config.rateLimitWindow`. Pass the Redis adapter when many nodes share limits. */
  readonly rateLimiter?: RateLimiter;
  readonly config: ApiConfig;
  readonly logger: Logger;
  readonly now?: () => Date;
  /** Prometheus registry for GET /metrics (default: a new one). */
  readonly metrics?: Registry;
  /**
   * GET /subscribe (apps/api/src/subscribe) when given: the node's fanout hub, stream caps and
   * reconnect hints. The route authorizes through this app's access checks like every public route.
   */
  readonly streams?: Omit<SubscribeRouteDeps, 'access'>;
  /** Set when the process begins to leave (SIGTERM): /readyz answers 503 at once. */
  readonly drain?: { readonly draining: boolean };
  /**
   * Waits for this node to apply a position (`?minPosition=`, resumes): the in-process projector's
   * in the embedded profile; by default a poller of `stores.readModel.appliedPosition()`.
   */
  readonly positionWaiter?: PositionWaiter;
}

export interface ApiApp {
  readonly app: Koa;
  readonly access: PublicAccess;
  readonly usage: UsageRecorder;
  /** This node's position waiter (for the stream's resumes ahead of the node). */
  readonly positionWaiter: PositionWaiter;
  /** A node:http request listener. */
  callback(): ReturnType<Koa['callback']>;
  /** Unsubscribes from the change stream and flushes usage counts. Does not close the adapters. */
  close(): Promise<void>;
}

/**
 * The public read API (docs/public-api.md; decisions in docs/decisions.md, "Public interface"): /public/data/:dataId, /public/batch,
 * /public/collections/:slug/data, /subscribe when given, and /healthz, /readyz, /metrics,
 * /openapi.json and /docs (generated from the route table, routes/publicContract.ts). Resolves once it listens to the change stream.
 */
export const createApiApp = async (deps: ApiAppDeps): Promise<ApiApp> => {
  const now = deps.now ?? (() => new Date());
  const metrics = deps.metrics ?? createMetricsRegistry({ app: 'api', collectDefaults: false });
  const rateLimiter = deps.rateLimiter ?? createMemoryRateLimiter({ window: deps.config.rateLimitWindow, now });
  const usage = createUsageRecorder({ store: deps.stores.usage, logger: deps.logger, now, intervalMs: deps.config.usageFlushMs });
  const access = createPublicAccess({ readModel: deps.stores.readModel, keys: deps.stores.keys, changeStream: deps.changeStream, rateLimiter, usage, config: deps.config });
  await access.start();

  const edge = createReplyEdge({ cache: deps.config.cache, compressionMinBytes: deps.config.compressionMinBytes });
  const positionWaiter = deps.positionWaiter ?? createPollingPositionWaiter({ applied: () => deps.stores.readModel.appliedPosition() });
  const minPosition = createMinPositionGate(positionWaiter, deps.config.minPositionWaitMs ?? 2_000);
  const readiness = createApiReadiness({
    ping: () => deps.stores.ping(),
    readModel: deps.stores.readModel,
    changeStreamProblem: () => access.changeStreamProblem() ?? deps.streams?.hub.changeStreamProblem() ?? null,
    drain: deps.drain,
    timeoutMs: deps.config.readinessTimeoutMs ?? 1_000,
  });
  const subscribe = deps.streams ? createSubscribeRoute({ ...deps.streams, access }) : null;
  const { router, keyed } = createPublicRouter({ readModel: deps.stores.readModel, history: deps.stores.history, access, edge, minPosition, subscribe, readiness, metrics });

  const app = new Koa({ proxy: false });
  app.silent = true;
  // The middleware before the router; the hot path runs the same ones (docs/public-api.md, "Hot path").
  const outer = [requestContext({ logger: deps.logger, accessLog: deps.config.accessLog }), requestMetrics(metrics), errorMiddleware({ logger: deps.logger }), rateLimitRefusals(metrics)];
  for (const middleware of outer) app.use(middleware);
  app.use(corsPreflight());
  app.use(publicApiReference());
  app.use(router.routes());
  app.use(router.allowedMethods());

  return {
    app,
    access,
    usage,
    positionWaiter,
    callback: () => keyedFastPath({ app, outer, routes: keyed }),
    async close() {
      positionWaiter.close();
      await access.close();
      await usage.close();
    },
  };
};
