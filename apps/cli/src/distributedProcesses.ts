import { randomUUID } from 'node:crypto';
import type { Config } from '@pubstream/config';
import { BackendErrorTally, createLogger, createMetricsRegistry, type Logger } from '@pubstream/observability';
import { openChangeStream, openEventStore, openRateLimiter, openStores, openStreamSlots, processIdentity } from './adapters.js';
import { serveAdminApi } from './adminApi.js';
import { createCleanupStack, startOrUndo, type CleanupStack } from './cleanupStack.js';
import { drainGraceMs } from './httpServer.js';
import { createPublicApi, servePublicApi } from './publicApi.js';

/** A started process of the distributed profile. */
export interface RunningProcess {
  readonly url: string | null;
  stop(): Promise<void>;
}

/** Runs `build`; on failure closes whatever it had opened, then rethrows. */
const starting = (logger: Logger, build: (cleanups: CleanupStack) => Promise<string | null>): Promise<RunningProcess> => {
  const cleanups = createCleanupStack((error) => logger.warn({ err: error }, 'error while stopping'));
  return startOrUndo(cleanups, async () => ({ url: await build(cleanups), stop: cleanups.stop }));
};

/**
 * `pubstream api`: the public read API and SSE fanout on Redis + Kafka; many of them may run. As an
 * API worker (`worker` set) its /metrics series carry `worker="N"` (docs/operations.md, "API workers").
 */
export const startApiProcess = (config: Config, logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-api' }), worker?: number) =>
  starting(logger, async (cleanups) => {
    const now = () => new Date();
    const backendErrors = new BackendErrorTally();
    const { stores, redis } = await openStores(config, logger, now, { servesRequests: true, errors: backendErrors });
    cleanups.push(() => stores.close());
    const changeStream = openChangeStream(config, logger, processIdentity('api'), backendErrors);
    cleanups.push(() => changeStream.close());
    const api = await createPublicApi({
      config,
      stores,
      changeStream,
      logger,
      now,
      metrics: apiMetrics(worker),
      backendErrors,
      rateLimiter: openRateLimiter(config, redis, now, logger, backendErrors),
      streamSlots: openStreamSlots(redis),
    });
    cleanups.push(() => api.close());
    const server = await servePublicApi(api, config);
    cleanups.push(() => server.stop());
    logger.info({ url: server.url }, 'public API listening');
    return server.url;
  });

const apiMetrics = (worker: number | undefined) => {
  const metrics = createMetricsRegistry({ app: 'api' });
  if (worker !== undefined) metrics.setDefaultLabels({ app: 'api', worker: String(worker) });
  return metrics;
};

/** `pubstream admin`: the write side; read-your-writes polls the projector's checkpoint in Redis. */
export const startAdminProcess = (config: Config, logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-admin' })) =>
  starting(logger, async (cleanups) => {
    const now = () => new Date();
    if (config.adminToken === null) throw new Error('ADMIN_TOKEN is required for "pubstream admin"');
    const eventStore = openEventStore(config, now, { servesRequests: true });
    cleanups.push(() => eventStore.close());
    const { stores } = await openStores(config, logger, now, { servesRequests: true });
    cleanups.push(() => stores.close());
    const { server } = await serveAdminApi(config, {
      adminToken: config.adminToken,
      eventStore,
      stores,
      logger,
      now,
      newId: randomUUID,
      metrics: createMetricsRegistry({ app: 'admin' }),
    });
    cleanups.push(() => server.close(drainGraceMs(config)));
    logger.info({ url: server.url }, 'admin API listening');
    return server.url;
  });
