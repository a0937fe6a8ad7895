import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateApiKey, hashApiKey, type RateLimiter } from '@pubstream/access';
import { createInProcessChangeStream, type ChangeStream } from '@pubstream/change-stream';
import type { KeyType, PlanName, SortableField } from '@pubstream/domain';
import { createLogger, type Logger } from '@pubstream/observability';
import { APPLIED_CHECKPOINT, createMemoryStores, withPosition, type KeyRecord, type ReadModelOp, type Stores } from '@pubstream/read-model';
import { createApiApp, type ApiApp, type ApiConfig } from '../apiApp.js';

/** A public API on memory stores, listening on 127.0.0.1:0, seeded through `apply`. */
export interface ApiHarness {
  readonly url: string;
  readonly stores: Stores;
  readonly changeStream: ChangeStream;
  readonly api: ApiApp;
  /** Applies ops (each at the next log position, recorded in the change history) and publishes their change messages, as the projector would. */
  apply(ops: ReadModelOp[]): Promise<void>;
  /** The position of the last op applied. */
  position(): number;
  collection(slug: string, sortableFields?: SortableField[]): Promise<void>;
  item(collectionId: string, dataId: string, data: Record<string, unknown>, options?: { version?: number; createdAt?: string; updatedAt?: string }): Promise<void>;
  deleteItem(collectionId: string, dataId: string, version: number): Promise<void>;
  /** Creates a key record and returns the raw key. */
  key(options?: { type?: KeyType; allowedDomains?: string[]; rateLimit?: number }): Promise<{ raw: string; record: KeyRecord }>;
  deleteKey(record: KeyRecord): Promise<void>;
  plan(plan: PlanName, monthlyQuota: number | null): Promise<void>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

let position = 0;
let keySeq = 0;

export const startApiHarness = async (
  options: {
    config?: Partial<ApiConfig>;
    now?: () => Date;
    rateLimiter?: RateLimiter;
    stores?: Stores;
    caughtUp?: boolean;
    resumeWindowMs?: number;
    /** Default: silent. */
    logger?: Logger;
  } = {},
): Promise<ApiHarness> => {
  const now = options.now ?? (() => new Date());
  const stores = options.stores ?? createMemoryStores({ now });
  // Ops are applied directly, as a caught-up projector would: misses are trusted (docs/read-models.md),
  // unless the test plays a read model that is still being rebuilt.
  if (options.caughtUp !== false) await stores.projections.markCaughtUp({ projection: 'test', position: 0 });
  const changeStream = createInProcessChangeStream();
  const api = await createApiApp({
    stores,
    changeStream,
    rateLimiter: options.rateLimiter,
    config: { acceptTestKeys: true, requireBrowserOrigin: false, rateLimitWindow: 'minute', ...options.config },
    logger: options.logger ?? createLogger({ level: 'silent', name: 'api-test' }),
    now,
  });
  const server: Server = createServer(api.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const versions = new Map<string, number>();
  const nextVersion = (id: string) => {
    const version = (versions.get(id) ?? -1) + 1;
    versions.set(id, version);
    return version;
  };
  const stamp = '2026-01-01T00:00:00.000Z';

  const apply = async (unpositioned: ReadModelOp[]) => {
    const first = position + 1;
    position += unpositioned.length;
    const ops = unpositioned.map((op, i) => withPosition(op, first + i));
    const history = { at: now(), windowMs: options.resumeWindowMs ?? 86_400_000 };
    await stores.projections.apply(ops, { projection: APPLIED_CHECKPOINT, position }, { history });
    await changeStream.publish(
      ops.map((op) => {
        switch (op.kind) {
          case 'key.put':
            return { kind: 'key', action: 'update', keyId: op.key.keyId, keyHash: op.key.keyHash, version: op.key.version, position };
          case 'key.delete':
            return { kind: 'key', action: 'delete', keyId: op.keyId, keyHash: op.keyHash, version: op.version, position };
          case 'plan.put':
            return { kind: 'plan', action: 'update', version: op.plan.version, position };
          case 'collection.put':
            return { kind: 'collection', action: 'update', slug: op.collection.slug, version: op.collection.version, position };
          case 'collection.delete':
            return { kind: 'collection', action: 'delete', slug: op.slug, version: op.version, position };
          case 'item.put':
            return { kind: 'item', action: 'update', dataId: op.item.dataId, collectionId: op.item.collectionId, data: op.item.data, version: op.item.version, position };
          case 'item.delete':
            return { kind: 'item', action: 'delete', dataId: op.dataId, collectionId: op.collectionId, data: {}, version: op.version, position };
        }
      }),
    );
  };

  const harness: ApiHarness = {
    url,
    stores,
    changeStream,
    api,
    apply,
    position: () => position,
    collection: (slug, sortableFields = []) =>
      apply([{ kind: 'collection.put', collection: { slug, name: slug, sortableFields, createdAt: stamp, updatedAt: stamp, version: nextVersion(`c:${slug}`), position: 0 } }]),
    item: (collectionId, dataId, data, opts = {}) =>
      apply([
        {
          kind: 'item.put',
          item: {
            id: `id-${dataId}`,
            dataId,
            collectionId,
            data,
            createdAt: opts.createdAt ?? stamp,
            updatedAt: opts.updatedAt ?? opts.createdAt ?? stamp,
            version: opts.version ?? nextVersion(`i:${dataId}`),
            position: 0,
          },
        },
      ]),
    deleteItem: (collectionId, dataId, version) => apply([{ kind: 'item.delete', dataId, collectionId, version, position: 0 }]),
    async key(opts = {}) {
      const type = opts.type ?? 'live';
      const raw = generateApiKey(type);
      const record: KeyRecord = {
        keyId: `key-${++keySeq}`,
        keyHash: hashApiKey(raw),
        name: 'test key',
        type,
        last4: raw.slice(-4),
        allowedDomains: opts.allowedDomains ?? [],
        rateLimit: opts.rateLimit ?? 1000,
        createdAt: stamp,
        version: 0,
      };
      await apply([{ kind: 'key.put', key: record }]);
      return { raw, record };
    },
    deleteKey: (record) => apply([{ kind: 'key.delete', keyId: record.keyId, keyHash: record.keyHash, version: record.version + 1 }]),
    plan: (plan, monthlyQuota) => apply([{ kind: 'plan.put', plan: { plan, monthlyQuota, version: nextVersion('plan') } }]),
    get: (path, headers = {}) => fetch(url + path, { headers }),
    post: (path, body, headers = {}) =>
      fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    async close() {
      await api.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
  return harness;
};
