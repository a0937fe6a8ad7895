import type { Context, Middleware } from 'koa';
import { ForbiddenError, NotFoundError, PLANS, ServiceUnavailableError, UnauthorizedError } from '@pubstream/domain';
import type { KeyRecord, PlanRecord } from '@pubstream/read-model';
import type { FanoutHub } from './fanoutHub.js';
import { createSseConnection } from './sseConnection.js';
import { connectedFrame, type ReconnectReason } from './sseFrames.js';
import { parseSubscribeQuery } from './subscribeQuery.js';

export const REACTIVE_MODE_REQUIRED = 'Real-time subscriptions require a plan with reactive mode (Business or higher)';

export interface SubscribeConfig {
  /** Lifetime of a stream before `reconnect {reason: "cycle"}` (STREAM_TTL_MS, default 300000). */
  readonly streamTtlMs: number;
  /** ± fraction of `streamTtlMs` so that streams do not all cycle at once. Default 0.1. */
  readonly ttlJitter?: number;
  /** Bound of unsent bytes per connection before `slow_consumer`. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /** How long an ended stream may flush before its socket is destroyed. Default 5 s. */
  readonly closeGraceMs?: number;
  /** An operator's lower cap on concurrent streams per key; the plan's maxStreamsPerKey is the ceiling. */
  readonly maxStreamsPerKey?: number;
}

export interface SubscribeRouteDeps {
  /**
   * The shared key check of every public route: 401 `Invalid API key` for a missing, malformed,
   * unknown or deleted key, 403 `Domain not allowed for this API key` for a refused domain.
   * `corsOrigin` (as libs/access `authorizeKey` gives it) is echoed in Access-Control-Allow-Origin;
   * when it is not given, the request's Origin is (authorize accepted it).
   */
  authorize(params: {
    apiKey: string | undefined;
    origin: string | undefined;
    referer: string | undefined;
  }): Promise<{ key: KeyRecord; plan: PlanRecord; corsOrigin?: string | null }>;
  /**
   * Counts this connection against the key's rate limit: sets the X-RateLimit-* headers on `ctx`
   * and throws RateLimitedError (429) when over. Omit to skip rate limiting.
   */
  consumeRate?(ctx: Context, key: KeyRecord, plan: PlanRecord): Promise<void>;
  /** The one metered call of this connection cycle (called once the stream has started). */
  recordUsage(keyId: string): void | Promise<void>;
  readonly hub: FanoutHub;
  readonly config: SubscribeConfig;
  /** Connection ids. */
  newId(): string;
  /** For the TTL jitter; Math.random by default. */
  random?(): number;
  readonly logger?: { warn(details: object, message: string): void };
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const errorForEarlyEnd = (reason: ReconnectReason): Error => {
  switch (reason) {
    case 'key_revoked':
      return new UnauthorizedError();
    case 'plan_changed':
      return new ForbiddenError(REACTIVE_MODE_REQUIRED);
    case 'shutdown':
      return new ServiceUnavailableError('This server is shutting down; reconnect to reach another one');
    default:
      return new ServiceUnavailableError('The stream could not start; try again');
  }
};

/**
 * GET /subscribe: a Koa middleware streaming Server-Sent Events (docs/subscriptions.md). Every
 * refusal is thrown as a PubstreamError before the first byte, for the app's error middleware to
 * render as JSON; once the snapshot is read, the response is written straight to the socket.
 */
export const createSubscribeRoute = (deps: SubscribeRouteDeps): Middleware => {
  const { hub, config } = deps;
  const random = deps.random ?? Math.random;
  const jitter = config.ttlJitter ?? 0.1;
  const maxBufferedBytes = config.maxBufferedBytes ?? 1024 * 1024;
  const closeGraceMs = config.closeGraceMs ?? 5_000;

  return async function subscribe(ctx: Context): Promise<void> {
    const origin = ctx.get('Origin') || undefined;
    const { key, plan, corsOrigin } = await deps.authorize({
      apiKey: first(ctx.query.apiKey),
      origin,
      referer: ctx.get('Referer') || undefined,
    });
    const limits = PLANS[plan.plan];
    if (!limits.reactive) throw new ForbiddenError(REACTIVE_MODE_REQUIRED);
    if (deps.consumeRate) await deps.consumeRate(ctx, key, plan);
    const query = parseSubscribeQuery({ collections: ctx.query.collections, dataIds: ctx.query.dataIds });

    if (ctx.method === 'HEAD') {
      // @koa/router answers HEAD with the GET handler: report the checks, open no stream.
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      ctx.set('Cache-Control', 'no-cache, no-transform');
      return;
    }

    await hub.start();
    // Registered before the snapshot is read: every delta from here on is buffered (DESIGN.md §6).
    const stream = hub.open({
      keyId: key.keyId,
      keyHash: key.keyHash,
      dataIds: query.dataIds,
      slugs: query.collections,
      maxStreamsPerKey: Math.min(limits.maxStreamsPerKey, config.maxStreamsPerKey ?? Number.POSITIVE_INFINITY),
      planName: plan.plan,
    });
    let snapshot;
    try {
      snapshot = await stream.readSnapshot();
    } catch (error) {
      stream.cancel();
      throw error;
    }
    if (stream.endedBeforeStart !== null) {
      stream.cancel();
      throw errorForEarlyEnd(stream.endedBeforeStart);
    }
    if (snapshot.missingSlugs.length > 0) {
      stream.cancel();
      throw new NotFoundError(`Collection not found: ${snapshot.missingSlugs.join(', ')}`);
    }
    const res = ctx.res;
    const socket = ctx.req.socket;
    if (socket.destroyed || res.destroyed) {
      stream.cancel();
      return;
    }

    // From here Koa stays out of the way: no buffering, no body handling. The status is set on
    // ctx too so that logging and metrics middleware see 200, not Koa's default 404.
    ctx.status = 200;
    ctx.respond = false;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    const headers: Record<string, string> = {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      Vary: 'Origin',
    };
    // authorize() has accepted this origin for the key; without an Origin there is no CORS to answer.
    const allowOrigin = corsOrigin === undefined ? origin : corsOrigin;
    if (allowOrigin) headers['Access-Control-Allow-Origin'] = allowOrigin;
    res.writeHead(200, headers);

    const connection = createSseConnection(res, { maxBufferedBytes, closeGraceMs });
    const ttlMs = Math.max(1, Math.round(config.streamTtlMs * (1 + (random() * 2 - 1) * jitter)));
    connection.write(connectedFrame(deps.newId(), ttlMs));
    stream.attach(connection, snapshot);
    const cycle = setTimeout(() => connection.end('cycle'), ttlMs);
    cycle.unref();
    connection.onEnd(() => clearTimeout(cycle));

    try {
      await deps.recordUsage(key.keyId);
    } catch (error) {
      deps.logger?.warn({ err: error, keyId: key.keyId }, 'recording usage of a stream failed');
    }
  };
};
