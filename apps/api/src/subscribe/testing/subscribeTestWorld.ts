import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import Koa, { type Middleware } from 'koa';
import { NotFoundError, type KeyType, type PlanName } from '@pubstream/domain';
import { createMemoryStores, type ReadModel, type Stores } from '@pubstream/read-model';
import { createInProcessChangeStream, type ChangeStream } from '@pubstream/change-stream';
import { createMemoryRateLimiter, createMemoryStreamSlots, type StreamSlots } from '@pubstream/access';
import { errorMiddleware } from '@pubstream/http';
import { createLogger } from '@pubstream/observability';
import { corsPreflight } from '../../http/cors.js';
import { createPublicAccess } from '../../publicAccess.js';
import { createPollingPositionWaiter } from '../../positions/pollingPositionWaiter.js';
import type { PositionWaiter } from '../../positions/positionWaiter.js';
import { createFanoutHub, type FanoutHub, type FanoutHubOptions } from '../fanoutHub.js';
import { positionReadsOf, type PositionReads } from '../hubReads.js';
import { createReconnectHints, type ReconnectHints } from '../reconnectHints.js';
import { createStreamAdmission, type StreamAdmission } from '../streamAdmission.js';
import { createSubscribeRoute, type SubscribeConfig } from '../subscribeRoute.js';
import { WorldWrites } from './worldWrites.js';

export interface SubscribeTestWorldOptions extends Partial<SubscribeConfig> {
  readonly heartbeatMs?: number;
  readonly coalesceMs?: number;
  readonly hubMaxBufferedBytes?: number;
  /** Extra hub options (e.g. a change stream wrapper). */
  readonly hub?: Partial<FanoutHubOptions>;
  /** Default: new memory stores. The world closes them. */
  readonly stores?: Stores;
  /**
   * The hub's reads answer up to this many ms late (read first, then wait: a slow response), so
   * that writes land and their messages arrive while a snapshot is in flight.
   */
  readonly slowReadsMs?: number;
  /** SHUTDOWN_RECONNECT_WINDOW_MS of the hub's drain. Default 0. */
  readonly shutdownReconnectWindowMs?: number;
  /** MAX_STREAMS_PER_ADDRESS. Default 0 (no cap). */
  readonly maxStreamsPerAddress?: number;
  /** The per-key cap's slots; default in memory (this world alone). */
  readonly streamSlots?: StreamSlots;
  /** How often this world's node refreshes its slots. */
  readonly slotHeartbeatMs?: number;
  /** False: the read model plays one still being rebuilt (misses are not trusted). Default true. */
  readonly caughtUp?: boolean;
  /** Wraps the node's position reads (e.g. a node that lags behind); the route's waiter polls the wrapped one. */
  readonly positions?: (real: PositionReads) => PositionReads;
  /** RESUME_WINDOW of the writes' history. Default 24 h. */
  readonly resumeWindowMs?: number;
}

const withSlowReads = (readModel: ReadModel, maxDelayMs: number): FanoutHubOptions['reads'] => {
  const late = async <T>(value: Promise<T>): Promise<T> => {
    const result = await value;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * maxDelayMs));
    return result;
  };
  return {
    getItems: (dataIds) => late(readModel.getItems(dataIds)),
    getCollectionPage: (slug, query) => late(readModel.getCollectionPage(slug, query)),
  };
};

export interface SubscribeTestWorld {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly stores: Stores;
  readonly changeStream: ChangeStream;
  readonly hub: FanoutHub;
  readonly admission: StreamAdmission;
  /** Usage recorded per key id (one per connection cycle). */
  readonly usage: Map<string, number>;
  subscribeUrl(params: Record<string, string | undefined>): string;
  putCollection(slug: string): Promise<void>;
  deleteCollection(slug: string): Promise<void>;
  /** Creates or updates an item; returns its new version. `publish: false` loses the change message. */
  putItem(slug: string, dataId: string, data: Record<string, unknown>, options?: { publish?: boolean }): Promise<number>;
  /** Tells the hub that change messages may have been lost. */
  triggerGap(reason: string): void;
  deleteItem(slug: string, dataId: string): Promise<number>;
  createKey(options?: { type?: KeyType; allowedDomains?: string[]; rateLimit?: number }): Promise<{ apiKey: string; keyId: string }>;
  deleteKey(keyId: string): Promise<void>;
  setPlan(plan: PlanName): Promise<void>;
  /** TCP connections the server holds open. */
  openSockets(): Promise<number>;
  close(): Promise<void>;
}

/** The node's position reads over the world's stores, wrapped as the options ask. */
const worldPositions = (options: SubscribeTestWorldOptions, stores: Stores): PositionReads => {
  const real = positionReadsOf(stores);
  return options.positions ? options.positions(real) : real;
};

/** The hub of the world, over its stores; `triggerGap` calls the hub's gap handler. */
const createWorldHub = (options: SubscribeTestWorldOptions, stores: Stores, positions: PositionReads, changeStream: ChangeStream, hints: ReconnectHints) => {
  let gapHandler: ((reason: string) => void) | undefined;
  const hub = createFanoutHub({
    hints,
    positions,
    reads: options.slowReadsMs ? withSlowReads(stores.readModel, options.slowReadsMs) : stores.readModel,
    plans: stores.keys,
    changeStream: {
      subscribe: (handlers) => {
        gapHandler = handlers.onGap;
        return changeStream.subscribe(handlers);
      },
    },
    coalesceMs: options.coalesceMs ?? 20,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    maxBufferedBytes: options.hubMaxBufferedBytes ?? 1024 * 1024,
    ...options.hub,
  });
  return { hub, triggerGap: (reason: string) => gapHandler?.(reason) };
};

/** The public access checks of the API app, with usage counted per key id in `usage`. */
const createWorldAccess = async (stores: Stores, changeStream: ChangeStream, usage: Map<string, number>) => {
  const now = (): Date => new Date();
  const access = createPublicAccess({
    readModel: stores.readModel,
    keys: stores.keys,
    changeStream,
    rateLimiter: createMemoryRateLimiter({ window: 'minute', now }),
    usage: {
      record: (keyId) => void usage.set(keyId, (usage.get(keyId) ?? 0) + 1),
      flush: async () => {},
      close: async () => {},
    },
    config: { acceptTestKeys: true, requireBrowserOrigin: false, cacheTtlMs: 0 },
  });
  await access.start();
  return access;
};

/** Serves only GET /subscribe, with the API app's own error rendering and preflight, so refusals look as they do in production. */
const listenWith = async (route: Middleware): Promise<{ server: Server; url: string }> => {
  const app = new Koa();
  app.use(errorMiddleware({ logger: createLogger({ level: 'silent', name: 'subscribe-test' }) }));
  app.use(corsPreflight());
  app.use(async (ctx, next) => {
    if (ctx.path === '/subscribe' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return route(ctx, next);
    throw new NotFoundError('Route not found');
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

const routeConfig = (options: SubscribeTestWorldOptions): SubscribeConfig => ({
  streamTtlMs: options.streamTtlMs ?? 300_000,
  maxStreamsPerKey: options.maxStreamsPerKey,
  ttlJitter: options.ttlJitter,
  maxBufferedBytes: options.maxBufferedBytes,
  closeGraceMs: options.closeGraceMs,
  positionWaitMs: options.positionWaitMs,
});

/**
 * A minimal Koa app that mounts only GET /subscribe over the real memory stores and the real
 * in-process change stream. Writes play the projector: apply to the read model, then publish.
 */
export const createSubscribeTestWorld = async (options: SubscribeTestWorldOptions = {}): Promise<SubscribeTestWorld> => {
  const stores = options.stores ?? createMemoryStores();
  // Writes play a caught-up projector: misses are trusted (docs/read-models.md).
  if (options.caughtUp !== false) await stores.projections.markCaughtUp({ projection: 'world', position: 0 });
  const changeStream = createInProcessChangeStream();
  const hints = createReconnectHints({ shutdownWindowMs: options.shutdownReconnectWindowMs ?? 0 });
  const positions = worldPositions(options, stores);
  const { hub, triggerGap } = createWorldHub(options, stores, positions, changeStream, hints);
  const waiter: PositionWaiter = createPollingPositionWaiter({ applied: () => positions.appliedPosition(), intervalMs: 5 });
  const usage = new Map<string, number>();
  const access = await createWorldAccess(stores, changeStream, usage);
  const admission = createStreamAdmission({
    slots: options.streamSlots ?? createMemoryStreamSlots(),
    maxStreamsPerAddress: options.maxStreamsPerAddress ?? 0,
    heartbeatMs: options.slotHeartbeatMs,
  });
  const route = createSubscribeRoute({
    access,
    hub,
    admission,
    hints,
    positions: { reached: (position, timeoutMs) => waiter.reached(position, timeoutMs), appliedPosition: () => positions.appliedPosition() },
    config: routeConfig(options),
    newId: randomUUID,
  });
  const { server, url } = await listenWith(route);
  const writes = new WorldWrites(stores, changeStream, options.resumeWindowMs);
  return {
    url,
    stores,
    changeStream,
    hub,
    admission,
    usage,
    subscribeUrl(params) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
      return `${url}/subscribe?${query.toString()}`;
    },
    ...pickWrites(writes),
    triggerGap,
    openSockets: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    async close() {
      waiter.close();
      await hub.close();
      admission.close();
      await access.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await changeStream.close();
      await stores.close();
    },
  };
};

const pickWrites = (writes: WorldWrites) => ({
  putCollection: writes.putCollection,
  deleteCollection: writes.deleteCollection,
  putItem: writes.putItem,
  deleteItem: writes.deleteItem,
  createKey: writes.createKey,
  deleteKey: writes.deleteKey,
  setPlan: writes.setPlan,
});
