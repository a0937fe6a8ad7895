import { randomUUID } from 'node:crypto';
import { createAdminApp } from '@pubstream/admin';
import type { Config } from '@pubstream/config';
import { createLogger, createMetricsRegistry, type Logger } from '@pubstream/observability';
import { openChangeStream, openEventStore, openRateLimiter, openStores, openStreamSlots, processIdentity } from './adapters.js';
import { adminAppConfigOf } from './adminAppConfig.js';
import { edgeSettings, listen } from './httpServer.js';
import { createPublicApi, servePublicApi } from './publicApi.js';

/** A started process of the distributed profile. */
export interface RunningProcess {
  readonly url: string | null;
  stop(): Promise<void>;
}

type Cleanup = () => Promise<void>;

const stopper = (logger: Logger, cleanups: Cleanup[]) => {
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= (async () => {
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch (error) {
          logger.warn({ err: error }, 'error while stopping');
        }
      }
    })());
};

/** Runs `build`; on failure closes whatever it had opened, then rethrows. */
const starting = async (logger: Logger, build: (cleanups: Cleanup[]) => Promise<string | null>): Promise<RunningProcess> => {
  const cleanups: Cleanup[] = [];
  const stop = stopper(logger, cleanups);
  try {
    const url = await build(cleanups);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** `pubstream api`: the public read API and SSE fanout on Redis + Kafka; many of them may run. */
export const startApiProcess = (config: Config, logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-api' })) =>
  starting(logger, async (cleanups) => {
    const now = () => new Date();
    const { stores, redis } = await openStores(config, logger, now);
    cleanups.push(() => stores.close());
    const changeStream = openChangeStream(config, logger, processIdentity('api'));
    cleanups.push(() => changeStream.close());
    const api = await createPublicApi({
      config,
      stores,
      changeStream,
      logger,
      now,
      metrics: createMetricsRegistry({ app: 'api' }),
      rateLimiter: openRateLimiter(config, redis, now, logger),
      streamSlots: openStreamSlots(redis),
    });
    cleanups.push(() => api.close());
    const server = await servePublicApi(api, config);
    cleanups.push(() => server.stop());
    logger.info({ url: server.url }, 'public API listening');
    return server.url;
  });

/** `pubstream admin`: the write side; read-your-writes polls the projector's checkpoint in Redis. */
export const startAdminProcess = (config: Config, logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-admin' })) =>
  starting(logger, async (cleanups) => {
    const now = () => new Date();
    if (config.adminToken === null) throw new Error('ADMIN_TOKEN is required for "pubstream admin"');
    const eventStore = openEventStore(config, now);
    cleanups.push(() => eventStore.close());
    const { stores } = await openStores(config, logger, now);
    cleanups.push(() => stores.close());
    const app = createAdminApp({
      eventStore,
      stores,
      config: adminAppConfigOf(config, config.adminToken),
      logger,
      now,
      newId: randomUUID,
      metrics: createMetricsRegistry({ app: 'admin' }),
    });
    const server = await listen(app.callback(), config.adminHost, config.adminPort, edgeSettings(config, 'admin'));
    cleanups.push(() => server.close(config.shutdownTimeoutMs));
    logger.info({ url: server.url }, 'admin API listening');
    return server.url;
  });
