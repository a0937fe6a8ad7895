import type { Context, Middleware } from 'koa';
import { ForbiddenError, NotFoundError, PLANS, ServiceUnavailableError, UnauthorizedError } from '@pubstream/domain';
import type { PositionWaiter } from '../positions/positionWaiter.js';
import type { PublicAccess } from '../publicAccess.js';
import type { FanoutHub, HubStream } from './fanoutHub.js';
import type { ReconnectHints } from './reconnectHints.js';
import type { StreamAdmission } from './streamAdmission.js';
import { createSseConnection, type SseConnection } from './sseConnection.js';
import { connectedFrame, reconnectFrame, type ReconnectReason } from './sseFrames.js';
import { resumePosition } from './resumePosition.js';
import { parseSubscribeQuery, type SubscribeQuery } from './subscribeQuery.js';

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
  /** How long a resume from a position ahead of this node waits for it (MIN_POSITION_WAIT_MS). Default 2 s. */
  readonly positionWaitMs?: number;
}

/** The shared access checks of every public route (apps/api/src/publicAccess.ts). */
export type SubscribeAccess = Pick<PublicAccess, 'authorizeRequest' | 'consumeRate' | 'recordUsage' | 'confirmMiss'>;

/** The key and plan a request was authorized with. */
type Grant = Awaited<ReturnType<SubscribeAccess['authorizeRequest']>>;

export interface SubscribeRouteDeps {
  /**
   * The key, domain and CORS check of every public route, with the key from the `apiKey` query
   * parameter: 401/403 carry `Vary: Origin` like every route, and once the key allows the
   * request's origin, every later refusal (403 plan, 429, 400, 404) carries its CORS headers too.
   * `consumeRate` counts this connection against the key's rate limit (429); `recordUsage` is the
   * one metered call of the connection cycle (once the stream has started).
   */
  readonly access: SubscribeAccess;
  readonly hub: FanoutHub;
  /** The per-key (all nodes) and per-address caps on concurrent streams. */
  readonly admission: StreamAdmission;
  /** `retry:` of new streams, `retryAfterMs` of cut ones. */
  readonly hints: ReconnectHints;
  readonly config: SubscribeConfig;
  /**
   * The node's applied position, and a wait for it to reach one: a resume from a faster node
   * waits, never skips (docs/subscriptions.md). The wait is asked for only when the node is behind.
   */
  readonly positions: Pick<PositionWaiter, 'reached'> & { appliedPosition(): Promise<number> };
  /** Connection ids. */
  newId(): string;
  /** For the TTL jitter; Math.random by default. */
  random?(): number;
}

const errorForEarlyEnd = (reason: ReconnectReason): Error => {
  switch (reason) {
    case 'key_revoked':
      return new UnauthorizedError();
    case 'plan_changed':
      return new ForbiddenError(REACTIVE_MODE_REQUIRED);
    default:
      return new ServiceUnavailableError('The stream could not start; try again');
  }
};

/** The client closed its connection while the stream was being prepared: nothing to answer. */
class ClientGoneError extends Error {}

/** The node began to drain while the stream was being prepared. */
class DrainingError extends Error {}

const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * Admits the stream under the caps, registers it in the hub and reads its snapshot; any refusal
 * gives back what was taken. Resolves with null when the client went away meanwhile.
 */
const prepareStream = async (deps: SubscribeRouteDeps, ctx: Context, grant: Grant, query: SubscribeQuery & { from: number | null }, connectionId: string) => {
  const { key, plan } = grant;
  const release = await deps.admission.admit({
    address: ctx.req.socket.remoteAddress ?? '',
    keyId: key.keyId,
    streamId: connectionId,
    limit: Math.min(PLANS[plan.plan].maxStreamsPerKey, deps.config.maxStreamsPerKey ?? Number.POSITIVE_INFINITY),
    planName: plan.plan,
  });
  let stream: HubStream | undefined;
  try {
    // Registered before the snapshot is read: every delta from here on is buffered (docs/subscriptions.md, hand-off).
    if (deps.hub.draining) throw new DrainingError();
    stream = deps.hub.open({ keyId: key.keyId, keyHash: key.keyHash, dataIds: query.dataIds, slugs: query.collections });
    const start = await stream.readStart(query.from);
    if (stream.endedBeforeStart === 'shutdown') throw new DrainingError();
    if (stream.endedBeforeStart !== null) throw errorForEarlyEnd(stream.endedBeforeStart);
    if (start.missingSlugs.length > 0) {
      await deps.access.confirmMiss();
      throw new NotFoundError(`Collection not found: ${start.missingSlugs.join(', ')}`);
    }
    if (ctx.req.socket.destroyed || ctx.res.destroyed) throw new ClientGoneError();
    return { stream, start, release };
  } catch (error) {
    stream?.cancel();
    release();
    if (error instanceof ClientGoneError) return null;
    if (error instanceof DrainingError) return 'draining';
    throw error;
  }
};

/**
 * Takes the response over from Koa and opens the SSE connection on it: no buffering, no body
 * handling. The status is set on ctx too so that logging and metrics middleware see 200, not
 * Koa's default 404. Headers set on ctx (Vary, CORS, rate limits) are already on the response and
 * go out with these.
 */
const openConnection = (deps: SubscribeRouteDeps, ctx: Context): SseConnection => {
  const socket = ctx.req.socket;
  ctx.status = 200;
  ctx.respond = false;
  socket.setTimeout(0);
  socket.setNoDelay(true);
  socket.setKeepAlive(true);
  ctx.res.writeHead(200, STREAM_HEADERS);
  return createSseConnection(ctx.res, {
    ...deps.hub.output,
    maxBufferedBytes: deps.config.maxBufferedBytes ?? 1024 * 1024,
    closeGraceMs: deps.config.closeGraceMs ?? 5_000,
    retryAfterMs: deps.hints.retryAfterMs,
  });
};

/**
 * A stream asked for while the node drains: not a 503 (a browser's EventSource gives up for good on
 * one) but a stream that at once says `reconnect {reason: "shutdown"}` with a wait drawn from the
 * shutdown window, on a connection that then closes, so the reconnection goes elsewhere
 * (docs/subscriptions.md, "Reconnect hints"). Headers set on ctx (Vary, CORS, rate limits) go with it.
 */
const answerDraining = (deps: SubscribeRouteDeps, ctx: Context): void => {
  ctx.status = 200;
  ctx.respond = false;
  ctx.res.writeHead(200, { ...STREAM_HEADERS, Connection: 'close' });
  ctx.res.end(reconnectFrame('shutdown', deps.hints.retryAfterMs('shutdown')));
};

/**
 * GET /subscribe: a Koa middleware streaming Server-Sent Events (docs/subscriptions.md). Every
 * refusal is thrown as a PubstreamError before the first byte, for the app's error middleware to
 * render as JSON; once the snapshot is read, the response is written straight to the socket.
 */
export const createSubscribeRoute = (deps: SubscribeRouteDeps): Middleware => {
  const { hub, config, access, hints } = deps;
  const random = deps.random ?? Math.random;
  const jitter = config.ttlJitter ?? 0.1;

  return async function subscribe(ctx: Context): Promise<void> {
    const grant = await access.authorizeRequest(ctx, 'query');
    if (!PLANS[grant.plan.plan].reactive) throw new ForbiddenError(REACTIVE_MODE_REQUIRED);
    await access.consumeRate(ctx, grant.key, grant.plan);
    const query = parseSubscribeQuery({ collections: ctx.query.collections, dataIds: ctx.query.dataIds });
    const from = resumePosition(ctx.headers['last-event-id'], ctx.query.from);

    if (ctx.method === 'HEAD') {
      // @koa/router answers HEAD with the GET handler: report the checks, open no stream.
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      ctx.set('Cache-Control', 'no-cache, no-transform');
      return;
    }

    await hub.start();
    // A client that saw `from` on a faster node: wait for this one to get there, before anything is taken.
    if (from !== null && (await deps.positions.appliedPosition()) < from && !(await deps.positions.reached(from, config.positionWaitMs ?? 2_000))) {
      throw new ServiceUnavailableError(`This server has not reached position ${from} yet; retry shortly`);
    }
    const connectionId = deps.newId();
    const prepared = await prepareStream(deps, ctx, grant, { ...query, from }, connectionId);
    if (prepared === null) return;
    if (prepared === 'draining') return answerDraining(deps, ctx);
    const { stream, start, release } = prepared;

    const connection = openConnection(deps, ctx);
    connection.onEnd(release);
    const ttlMs = Math.max(1, Math.round(config.streamTtlMs * (1 + (random() * 2 - 1) * jitter)));
    connection.snapshot(() => connection.write(connectedFrame(connectionId, ttlMs, hints.streamRetryMs())));
    stream.attach(connection, start);
    const cycle = setTimeout(() => connection.end('cycle'), ttlMs);
    cycle.unref();
    connection.onEnd(() => clearTimeout(cycle));
    access.recordUsage(grant.key.keyId);
  };
};
