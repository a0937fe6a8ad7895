import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { NotFoundError, type KeyType, type PlanName } from '@pubstream/domain';
import { createMemoryReadModel, type ReadModel, type ReadModelOp } from '@pubstream/read-model';
import { createInProcessChangeStream, type ChangeMessage, type ChangeStream } from '@pubstream/change-stream';
import { createMemoryRateLimiter, createMemoryStreamSlots, generateApiKey, hashApiKey, type StreamSlots } from '@pubstream/access';
import { errorMiddleware } from '@pubstream/http';
import { createLogger } from '@pubstream/observability';
import { corsPreflight } from '../../http/cors.js';
import { createPublicAccess } from '../../publicAccess.js';
import { createFanoutHub, type FanoutHub, type FanoutHubOptions } from '../fanoutHub.js';
import { createReconnectHints } from '../reconnectHints.js';
import { createStreamAdmission, type StreamAdmission } from '../streamAdmission.js';
import { createSubscribeRoute, type SubscribeConfig } from '../subscribeRoute.js';

export interface SubscribeTestWorldOptions extends Partial<SubscribeConfig> {
  readonly heartbeatMs?: number;
  readonly coalesceMs?: number;
  readonly hubMaxBufferedBytes?: number;
  /** Extra hub options (e.g. a change stream wrapper). */
  readonly hub?: Partial<FanoutHubOptions>;
  /** Default: a new memory read model. The world closes it. */
  readonly readModel?: ReadModel;
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
  readonly readModel: ReadModel;
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
  createKey(options?: { type?: KeyType; allowedDomains?: string[] }): Promise<{ apiKey: string; keyId: string }>;
  deleteKey(keyId: string): Promise<void>;
  setPlan(plan: PlanName): Promise<void>;
  /** TCP connections the server holds open. */
  openSockets(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A minimal Koa app that mounts only GET /subscribe over the real memory read model and the real
 * in-process change stream. Writes play the projector: apply to the read model, then publish.
 */
export const createSubscribeTestWorld = async (options: SubscribeTestWorldOptions = {}): Promise<SubscribeTestWorld> => {
  const readModel = options.readModel ?? createMemoryReadModel();
  const changeStream = createInProcessChangeStream();
  let gapHandler: ((reason: string) => void) | undefined;
  const hints = createReconnectHints({ shutdownWindowMs: options.shutdownReconnectWindowMs ?? 0 });
  const hub = createFanoutHub({
    hints,
    reads: options.slowReadsMs ? withSlowReads(readModel, options.slowReadsMs) : readModel,
    plans: readModel,
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
  const usage = new Map<string, number>();
  const versions = new Map<string, number>();
  let position = 0;
  const keys = new Map<string, { keyHash: string }>();

  const nextVersion = (stream: string): number => {
    const version = (versions.get(stream) ?? -1) + 1;
    versions.set(stream, version);
    return version;
  };
  const write = async (ops: ReadModelOp[], messages: (pos: number) => ChangeMessage[], publish = true): Promise<void> => {
    const pos = ++position;
    await readModel.apply(ops, { projection: 'test', position: pos });
    if (publish) await changeStream.publish(messages(pos));
  };

  const now = (): Date => new Date();
  const access = createPublicAccess({
    readModel,
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
    config: {
      streamTtlMs: options.streamTtlMs ?? 300_000,
      maxStreamsPerKey: options.maxStreamsPerKey,
      ttlJitter: options.ttlJitter,
      maxBufferedBytes: options.maxBufferedBytes,
      closeGraceMs: options.closeGraceMs,
    },
    newId: randomUUID,
  });

  // The API app's own error rendering and preflight, so refusals look as they do in production.
  const app = new Koa();
  app.use(errorMiddleware({ logger: createLogger({ level: 'silent', name: 'subscribe-test' }) }));
  app.use(corsPreflight());
  app.use(async (ctx, next) => {
    if (ctx.path === '/subscribe' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return route(ctx, next);
    throw new NotFoundError('Route not found');
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stamp = (): string => new Date().toISOString();

  return {
    url,
    readModel,
    changeStream,
    hub,
    admission,
    usage,
    subscribeUrl(params) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
      return `${url}/subscribe?${query.toString()}`;
    },
    async putCollection(slug) {
      const version = nextVersion(`collection-${slug}`);
      const at = stamp();
      await write([{ kind: 'collection.put', collection: { slug, name: slug, sortableFields: [], createdAt: at, updatedAt: at, version } }], (pos) => [
        { kind: 'collection', action: 'update', slug, version, position: pos },
      ]);
    },
    async deleteCollection(slug) {
      const version = nextVersion(`collection-${slug}`);
      await write([{ kind: 'collection.delete', slug, version }], (pos) => [{ kind: 'collection', action: 'delete', slug, version, position: pos }]);
    },
    triggerGap(reason) {
      gapHandler?.(reason);
    },
    async putItem(slug, dataId, data, putOptions = {}) {
      const version = nextVersion(`item-${dataId}`);
      const existing = await readModel.getItem(dataId);
      const at = stamp();
      const item = { id: existing?.id ?? randomUUID(), dataId, collectionId: slug, data, createdAt: existing?.createdAt ?? at, updatedAt: at, version };
      await write(
        [{ kind: 'item.put', item }],
        (pos) => [{ kind: 'item', action: 'update', dataId, collectionId: slug, version, position: pos, data }],
        putOptions.publish ?? true,
      );
      return version;
    },
    async deleteItem(slug, dataId) {
      const version = nextVersion(`item-${dataId}`);
      await write([{ kind: 'item.delete', dataId, collectionId: slug, version }], (pos) => [
        { kind: 'item', action: 'delete', dataId, collectionId: slug, version, position: pos, data: {} },
      ]);
      return version;
    },
    async createKey(keyOptions = {}) {
      const type = keyOptions.type ?? 'live';
      const apiKey = generateApiKey(type);
      const keyId = randomUUID();
      const keyHash = hashApiKey(apiKey);
      const version = nextVersion(`apikey-${keyId}`);
      keys.set(keyId, { keyHash });
      await write(
        [
          {
            kind: 'key.put',
            key: { keyId, keyHash, name: 'test', type, last4: apiKey.slice(-4), allowedDomains: keyOptions.allowedDomains ?? ['app.example.com'], rateLimit: 1000, createdAt: stamp(), version },
          },
        ],
        (pos) => [{ kind: 'key', action: 'update', keyId, keyHash, version, position: pos }],
      );
      return { apiKey, keyId };
    },
    async deleteKey(keyId) {
      const keyHash = keys.get(keyId)?.keyHash ?? '';
      const version = nextVersion(`apikey-${keyId}`);
      await write([{ kind: 'key.delete', keyId, keyHash, version }], (pos) => [{ kind: 'key', action: 'delete', keyId, keyHash, version, position: pos }]);
    },
    async setPlan(plan) {
      const version = nextVersion('project');
      await write([{ kind: 'plan.put', plan: { plan, monthlyQuota: null, version } }], (pos) => [{ kind: 'plan', action: 'update', version, position: pos }]);
    },
    openSockets: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    async close() {
      await hub.close();
      admission.close();
      await access.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await changeStream.close();
      await readModel.close();
    },
  };
};
