import { randomUUID } from 'node:crypto';
import type { AdminService } from '@pubstream/admin';
import type { ChangeStream } from '@pubstream/change-stream';
import { loadConfig, type Config } from '@pubstream/config';
import type { EventStore } from '@pubstream/event-store';
import { BackendErrorTally, createLogger, createMetricsRegistry, type Logger } from '@pubstream/observability';
import type { Projector } from '@pubstream/projector';
import type { ReadModel, Stores } from '@pubstream/read-model';
import { serveAdminApi } from './adminApi.js';
import { generateAdminToken } from './adminToken.js';
import { createCleanupStack, startOrUndo } from './cleanupStack.js';
import { startEmbeddedCore } from './embeddedCore.js';
import { drainGraceMs } from './httpServer.js';
import { serveInProcessPublicApi } from './inProcessPublicApi.js';
import type { PublicApiHostStarter } from './publicApiHost.js';
import { seedDemo, type DemoSeed } from './seedDemo.js';

/** Defaults for tests and embedding: loopback, free ports, an in-memory log, no logs. */
const EMBEDDED_TEST_ENV: Readonly<Record<string, string>> = {
  PORT: '0',
  ADMIN_PORT: '0',
  HOST: '127.0.0.1',
  ADMIN_HOST: '127.0.0.1',
  EVENT_STORE_URL: 'sqlite::memory:',
  LOG_LEVEL: 'silent',
};

export interface AllInOneOptions {
  /** Environment to read config from; default: the test defaults above (never process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overrides applied over the parsed config. */
  readonly config?: Partial<Config>;
  /** Seed the demo collection and key when the log is empty (default false). */
  readonly demo?: boolean;
  readonly logger?: Logger;
  readonly now?: () => Date;
  readonly newId?: () => string;
  /** Where the public API runs: by default in this process; `pubstream start` passes the API workers when API_WORKERS > 1. */
  readonly publicApi?: PublicApiHostStarter;
}

export interface AllInOne {
  readonly config: Config;
  /** Base URL of the public API. */
  readonly publicUrl: string;
  /** Processes serving the public API (1: this one). */
  readonly apiWorkers: number;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** True when no ADMIN_TOKEN was configured and one was generated for this run. */
  readonly adminTokenGenerated: boolean;
  /** The demo seed when this start created it (first start with an empty log). */
  readonly demo: DemoSeed | null;
  /** The event log this process uses and its head position at start (0: a new, empty log). */
  readonly eventLog: { readonly location: string; readonly positionAtStart: number };
  readonly eventStore: EventStore;
  /** The read-side ports this process built and handed to its apps. */
  readonly stores: Stores;
  /** The public reads (`stores.readModel`). */
  readonly readModel: ReadModel;
  readonly changeStream: ChangeStream;
  readonly projector: Projector;
  readonly admin: AdminService;
  /** Graceful stop: stop accepting, drain, stop the projector, close adapters. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The embedded profile in one process (docs/architecture.md, "Profiles"): SQLite log, in-memory
 * stores rebuilt from the log by the projector at start, the in-process change stream, the public API and the
 * admin API on their ports. EVENT_STORE_URL / REDIS_URL / KAFKA_BROKERS swap in the distributed
 * adapters while keeping everything in one process. `pubstream start` runs this; e2e tests start it with free ports.
 */
export const startAllInOne = async (options: AllInOneOptions = {}): Promise<AllInOne> => {
  const config: Config = Object.freeze({ ...loadConfig(options.env ?? EMBEDDED_TEST_ENV, 'all-in-one'), ...options.config });
  const logger = options.logger ?? createLogger({ level: config.logLevel, name: 'pubstream' });
  const now = options.now ?? (() => new Date());
  const adminToken = config.adminToken ?? generateAdminToken();
  const cleanups = createCleanupStack((error) => logger.warn({ err: error }, 'error while stopping'));

  return startOrUndo(cleanups, async () => {
    const backendErrors = new BackendErrorTally();
    const core = await startEmbeddedCore(config, logger, now, cleanups, backendErrors);
    // Prepared first (workers: forked and caught up), its port opened after the admin's: a client
    // that finds the public API up finds the admin up too.
    const publicApi = await (options.publicApi ?? serveInProcessPublicApi)({ config, core, logger, now, backendErrors, cleanups });
    // One registry per app: both define the http_* metrics (the API's is served on its /metrics).
    const admin = await serveAdminApi(config, {
      adminToken,
      eventStore: core.eventStore,
      stores: core.stores,
      // Read-your-writes: every process serving the public API has applied the write (docs/admin-api.md).
      projector: publicApi,
      logger: logger.child({ component: 'admin' }),
      now,
      newId: options.newId ?? randomUUID,
      metrics: createMetricsRegistry({ app: 'admin' }),
    });
    cleanups.push(() => admin.server.close(drainGraceMs(config)));
    const publicUrl = await publicApi.listen();
    // Run first on stop: both ports drain at once (each stop is idempotent; the steps above await them).
    cleanups.push(async () => void (await Promise.all([publicApi.drain(), admin.server.close(drainGraceMs(config))])));
    return {
      config,
      publicUrl,
      apiWorkers: publicApi.workers,
      adminUrl: admin.server.url,
      adminToken,
      adminTokenGenerated: config.adminToken === null,
      demo: options.demo === true && core.head === 0 ? await seedDemo(admin.service) : null,
      eventLog: { location: config.eventStore.kind === 'sqlite' ? config.eventStore.path : 'EventStoreDB', positionAtStart: core.head },
      eventStore: core.eventStore,
      stores: core.stores,
      readModel: core.stores.readModel,
      changeStream: core.changeStream,
      projector: core.projector,
      admin: admin.service,
      stop: cleanups.stop,
    };
  });
};
