import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { DEFAULT_PLAN, NotFoundError, RateLimitedError, STATUS_TEXT, isPubstreamError, type KeyType, type PlanName } from '@pubstream/domain';
import { createMemoryReadModel, type ReadModel, type ReadModelOp } from '@pubstream/read-model';
import { createInProcessChangeStream, type ChangeMessage, type ChangeStream } from '@pubstream/change-stream';
import { authorizeKey, generateApiKey, hashApiKey } from '@pubstream/access';
import { createFanoutHub, type FanoutHub, type FanoutHubOptions } from '../fanoutHub.js';
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
}

const withSlowReads = (readModel: ReadModel, maxDelayMs: number): FanoutHubOptions['readModel'] => {
  const late = async <T>(value: Promise<T>): Promise<T> => {
    const result = await value;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * maxDelayMs));
    return result;
  };
  return {
    getItems: (dataIds) => late(readModel.getItems(dataIds)),
    getCollectionPage: (slug, query) => late(readModel.getCollectionPage(slug, query)),
    getPlan: () => readModel.getPlan(),
  };
};

export interface SubscribeTestWorld {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly readModel: ReadModel;
  readonly changeStream: ChangeStream;
  readonly hub: FanoutHub;
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
  const hub = createFanoutHub({
    readModel: options.slowReadsMs ? withSlowReads(readModel, options.slowReadsMs) : readModel,
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

  const route = createSubscribeRoute({
    authorize: async ({ apiKey, origin, referer }) => {
      const grant = await authorizeKey(
        { apiKey, origin, referer },
        { getKey: (hash) => readModel.getKeyByHash(hash), acceptTestKeys: true, requireBrowserOrigin: false },
      );
      const plan = (await readModel.getPlan()) ?? { plan: DEFAULT_PLAN, monthlyQuota: null, version: 0 };
      return { key: grant.key, plan, corsOrigin: grant.corsOrigin };
    },
    recordUsage: (keyId) => {
      usage.set(keyId, (usage.get(keyId) ?? 0) + 1);
    },
    hub,
    config: {
      streamTtlMs: options.streamTtlMs ?? 300_000,
      maxStreamsPerKey: options.maxStreamsPerKey,
      ttlJitter: options.ttlJitter,
      maxBufferedBytes: options.maxBufferedBytes,
      closeGraceMs: options.closeGraceMs,
    },
    newId: randomUUID,
  });

  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const status = isPubstreamError(error) ? error.status : 500;
      if (error instanceof RateLimitedError && error.retryAfterSeconds !== null) ctx.set('Retry-After', String(error.retryAfterSeconds));
      ctx.status = status;
      ctx.body = { error: STATUS_TEXT[status] ?? 'Error', message: isPubstreamError(error) && error.expose ? error.message : (STATUS_TEXT[status] ?? 'Error') };
    }
  });
  app.use(async (ctx, next) => {
    if (ctx.path === '/subscribe' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return route(ctx, next);
    throw new NotFoundError('Route not found');
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const now = (): string => new Date().toISOString();

  return {
    url,
    readModel,
    changeStream,
    hub,
    usage,
    subscribeUrl(params) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
      return `${url}/subscribe?${query.toString()}`;
    },
    async putCollection(slug) {
      const version = nextVersion(`collection-${slug}`);
      const at = now();
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
      const at = now();
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
            key: { keyId, keyHash, name: 'test', type, last4: apiKey.slice(-4), allowedDomains: keyOptions.allowedDomains ?? ['app.example.com'], rateLimit: 1000, createdAt: now(), version },
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
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await changeStream.close();
      await readModel.close();
    },
  };
};
