import { randomUUID } from 'node:crypto';
import type { AdminService } from '@pubstream/admin';
import type { ChangeStream } from '@pubstream/change-stream';
import { loadConfig, type Config } from '@pubstream/config';
import type { EventStore } from '@pubstream/event-store';
import { createLogger, createMetricsRegistry, type Logger } from '@pubstream/observability';
import { createProjector, type Projector } from '@pubstream/projector';
import type { ReadModel, Stores } from '@pubstream/read-model';
import { openChangeStream, openEventStore, openRateLimiter, openStores, openStreamSlots, processIdentity } from './adapters.js';
import { serveAdminApi } from './adminApi.js';
import { generateAdminToken } from './adminToken.js';
import { watchCaughtUp } from './caughtUpWatch.js';
import { createCleanupStack, startOrUndo, type CleanupStack } from './cleanupStack.js';
import { drainGraceMs } from './httpServer.js';
import { createPublicApi, servePublicApi } from './publicApi.js';
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
}

export interface AllInOne {
  readonly config: Config;
  /** Base URL of the public API. */
  readonly publicUrl: string;
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
    const core = await startCore(config, logger, now, cleanups);
    // One registry per app: both define the http_* metrics (the API's is served on its /metrics).
    const admin = await serveAdminApi(config, {
      adminToken,
      eventStore: core.eventStore,
      stores: core.stores,
      projector: core.projector,
      logger: logger.child({ component: 'admin' }),
      now,
      newId: options.newId ?? randomUUID,
      metrics: createMetricsRegistry({ app: 'admin' }),
    });
    cleanups.push(() => admin.server.close(drainGraceMs(config)));
    const publicApi = await createPublicApi({
      config,
      stores: core.stores,
      changeStream: core.changeStream,
      logger: logger.child({ component: 'api' }),
      now,
      metrics: createMetricsRegistry({ app: 'api', collectDefaults: false }),
      // In front of the in-memory stores a cache only adds staleness.
      cacheTtlMs: core.redis === null ? 0 : undefined,
      rateLimiter: openRateLimiter(config, core.redis, now, logger),
      streamSlots: openStreamSlots(core.redis),
      // Read-your-writes waits on the projector of this process (docs/public-api.md, minPosition).
      positionWaiter: { reached: (position, timeoutMs) => core.projector.waitFor(position, timeoutMs), close: () => {} },
    });
    cleanups.push(() => publicApi.close());
    const publicServer = await servePublicApi(publicApi, config);
    cleanups.push(() => publicServer.stop());
    // Run first on stop: both ports drain at once (each stop is idempotent; the steps above await them).
    cleanups.push(async () => void (await Promise.all([publicServer.stop(), admin.server.close(drainGraceMs(config))])));
    return {
      config,
      publicUrl: publicServer.url,
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

/** The log, the stores, the change stream and the projector, caught up with the log. */
const startCore = async (config: Config, logger: Logger, now: () => Date, cleanups: CleanupStack) => {
  const eventStore = openEventStore(config, now, { servesRequests: true });
  cleanups.push(() => eventStore.close());
  const { stores, redis } = await openStores(config, logger, now, { servesRequests: true });
  cleanups.push(() => stores.close());
  const changeStream = openChangeStream(config, logger.child({ component: 'change-stream' }), processIdentity('all-in-one'));
  cleanups.push(() => changeStream.close());
  const projector = createProjector({ eventStore, stores, changeStream, logger: logger.child({ component: 'projector' }), now, resumeWindowMs: config.resumeWindowMs });
  projector.start();
  cleanups.push(() => projector.stop());
  const head = await catchUpWithLog(eventStore, projector, logger);
  // Misses are trusted from here on (docs/read-models.md, "Unknown is not missing"); the watch marks
  // a Redis read model again after it lost its data and the projector rebuilt it.
  await stores.projections.markCaughtUp({ projection: 'projector', position: head });
  cleanups.push(watchCaughtUp(projector, stores.projections, { onError: (error) => logger.debug({ err: error }, 'caught-up marker not refreshed') }));
  return { eventStore, stores, redis, changeStream, projector, head };
};

/** The memory stores start empty: replay the whole log before serving anything. Returns the log's head at start. */
const catchUpWithLog = async (eventStore: EventStore, projector: Projector, logger: Logger): Promise<number> => {
  const head = await eventStore.headPosition();
  if (head > 0) {
    logger.info({ head }, 'rebuilding the read models from the event log');
    while (!(await projector.waitFor(head, 10_000))) logger.info(await projector.status(), 'still rebuilding the read models');
  }
  return head;
};
