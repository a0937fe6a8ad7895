import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { createApiApp, createFanoutHub, createSubscribeRoute } from '@pubstream/api';
import type { RateLimiter } from '@pubstream/access';
import type { ChangeStream } from '@pubstream/change-stream';
import type { Config } from '@pubstream/config';
import type { Logger } from '@pubstream/observability';
import type { ReadModel } from '@pubstream/read-model';
import type { Registry } from 'prom-client';
import { edgeSettings, listen } from './httpServer.js';

export interface PublicApi {
  readonly callback: RequestListener;
  /** Ends every live stream with `reconnect {reason: "shutdown"}` and refuses new ones. */
  drain(): Promise<void>;
  /** Closes the fanout hub, stops listening to the change stream and flushes buffered usage counts. */
  close(): Promise<void>;
}

/** The public read API with /subscribe and its fanout hub, on the given adapters (both profiles). */
export const createPublicApi = async (deps: {
  config: Config;
  readModel: ReadModel;
  changeStream: ChangeStream;
  logger: Logger;
  now: () => Date;
  metrics?: Registry;
  /** Caches are pointless in front of the in-memory read model: 0 disables them. */
  cacheTtlMs?: number;
  /** Shared limits (Redis) for many API nodes; the API's in-memory limiter by default. */
  rateLimiter?: RateLimiter;
}): Promise<PublicApi> => {
  const hub = createFanoutHub({ readModel: deps.readModel, changeStream: deps.changeStream, logger: deps.logger.child({ component: 'fanout' }) });
  await hub.start();
  const api = await createApiApp({
    readModel: deps.readModel,
    changeStream: deps.changeStream,
    rateLimiter: deps.rateLimiter,
    config: {
      acceptTestKeys: deps.config.acceptTestKeys,
      requireBrowserOrigin: deps.config.requireBrowserOrigin,
      rateLimitWindow: deps.config.rateLimitWindow,
      cacheTtlMs: deps.cacheTtlMs,
    },
    logger: deps.logger,
    now: deps.now,
    metrics: deps.metrics,
    subscribe: (access) =>
      createSubscribeRoute({
        authorize: access.authorize,
        consumeRate: access.consumeRate,
        recordUsage: access.recordUsage,
        hub,
        config: { streamTtlMs: deps.config.streamTtlMs },
        newId: randomUUID,
        logger: deps.logger,
      }),
  });
  return {
    callback: api.callback(),
    drain: () => hub.drain('shutdown'),
    async close() {
      await hub.close();
      await api.close();
    },
  };
};

/**
 * Serves `api` on the configured host and port. stop() stops accepting first, then tells live
 * streams to reconnect elsewhere (drain), then waits for in-flight requests up to the shutdown timeout.
 */
export const servePublicApi = async (api: PublicApi, config: Config): Promise<{ readonly url: string; stop(): Promise<void> }> => {
  const server = await listen(api.callback, config.host, config.port, edgeSettings(config, 'public'));
  return {
    url: server.url,
    async stop() {
      const closing = server.close(config.shutdownTimeoutMs);
      await api.drain();
      await closing;
    },
  };
};
