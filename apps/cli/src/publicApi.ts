import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import {
  createApiApp,
  createFanoutHub,
  createPollingPositionWaiter,
  createReconnectHints,
  createStreamAdmission,
  positionReadsOf,
  registerFanoutHubMetrics,
  type ApiConfig,
  type ApiStores,
  type PositionWaiter,
} from '@pubstream/api';
import { createMemoryStreamSlots, type RateLimiter, type StreamSlots } from '@pubstream/access';
import type { ChangeStream } from '@pubstream/change-stream';
import type { Config } from '@pubstream/config';
import { createDrainSignal, type ConnectionGate, type DrainSignal } from '@pubstream/http';
import { registerBackendErrorMetrics, type BackendErrorTally, type Logger } from '@pubstream/observability';
import type { Registry } from 'prom-client';
import { drainGraceMs, edgeSettings, listen } from './httpServer.js';

export interface PublicApi {
  readonly callback: RequestListener;
  /** Set when the node begins to leave: /readyz answers 503 from then on. */
  readonly drainSignal: DrainSignal;
  /**
   * Ends every live stream with `reconnect {reason: "shutdown"}`, each with its own wait spread over
   * SHUTDOWN_RECONNECT_WINDOW_MS, and refuses new ones.
   */
  drain(): Promise<void>;
  /** Closes the fanout hub, stops listening to the change stream and flushes buffered usage counts. */
  close(): Promise<void>;
}

/** The public API's settings from the process configuration. */
const apiConfigOf = (config: Config, cacheTtlMs: number | undefined): ApiConfig => ({
  acceptTestKeys: config.acceptTestKeys,
  requireBrowserOrigin: config.requireBrowserOrigin,
  accessLog: config.accessLog,
  rateLimitWindow: config.rateLimitWindow,
  cacheTtlMs,
  readinessTimeoutMs: config.redisCommandTimeoutMs,
  cache: { maxAgeSeconds: config.cacheMaxAgeSeconds, staleWhileRevalidateSeconds: config.cacheStaleWhileRevalidateSeconds },
  compressionMinBytes: config.compressionMinBytes,
  minPositionWaitMs: config.minPositionWaitMs,
});

/** The public read API with /subscribe and its fanout hub, on the given adapters (both profiles). */
export const createPublicApi = async (deps: {
  config: Config;
  stores: ApiStores;
  changeStream: ChangeStream;
  logger: Logger;
  now: () => Date;
  metrics?: Registry;
  /** Errors of this process's Redis and Kafka clients, shown on `metrics` (pubstream_backend_errors_total). */
  backendErrors?: BackendErrorTally;
  /** Caches are pointless in front of the in-memory read model: 0 disables them. */
  cacheTtlMs?: number;
  /** Shared limits (Redis) for many API nodes; the API's in-memory limiter by default. */
  rateLimiter?: RateLimiter;
  /** The per-key stream cap shared by many API nodes (Redis); in memory (this process) by default. */
  streamSlots?: StreamSlots;
  /** Where MAX_STREAMS_PER_ADDRESS is counted when API workers share the port (their primary); this process by default. */
  addressSlots?: StreamSlots;
  /** The embedded profile's in-process projector waits; distributed nodes poll the read model. */
  positionWaiter?: PositionWaiter;
}): Promise<PublicApi> => {
  const { config } = deps;
  const drainSignal = createDrainSignal();
  const logger = deps.logger.child({ component: 'fanout' });
  const hints = createReconnectHints({ shutdownWindowMs: config.shutdownReconnectWindowMs });
  const { readModel } = deps.stores;
  const hub = createFanoutHub({ reads: readModel, positions: positionReadsOf(deps.stores), plans: deps.stores.keys, changeStream: deps.changeStream, logger, hints, unsentBudgetBytes: config.streamBufferBudgetBytes });
  // One waiter for ?minPosition= and for resumes ahead of this node; the API app closes it.
  const waiter = deps.positionWaiter ?? createPollingPositionWaiter({ applied: () => readModel.appliedPosition() });
  await hub.start();
  if (deps.metrics) registerFanoutHubMetrics(deps.metrics, hub);
  if (deps.metrics && deps.backendErrors) registerBackendErrorMetrics(deps.metrics, deps.backendErrors);
  const admission = createStreamAdmission({
    slots: deps.streamSlots ?? createMemoryStreamSlots(),
    ...(deps.addressSlots ? { addressSlots: deps.addressSlots } : {}),
    maxStreamsPerAddress: config.maxStreamsPerAddress,
    logger,
  });
  const api = await createApiApp({
    stores: deps.stores,
    changeStream: deps.changeStream,
    rateLimiter: deps.rateLimiter,
    config: apiConfigOf(config, deps.cacheTtlMs),
    positionWaiter: waiter,
    drain: drainSignal,
    logger: deps.logger,
    now: deps.now,
    metrics: deps.metrics,
    streams: {
      hub,
      admission,
      hints,
      positions: { reached: (position, timeoutMs) => waiter.reached(position, timeoutMs), appliedPosition: () => readModel.appliedPosition() },
      config: { streamTtlMs: config.streamTtlMs, maxStreamsPerKey: config.maxStreamsPerKey ?? undefined, positionWaitMs: config.minPositionWaitMs },
      newId: randomUUID,
    },
  });
  return {
    callback: api.callback(),
    drainSignal,
    drain: () => hub.drain('shutdown'),
    async close() {
      await hub.close();
      admission.close();
      await api.close();
    },
  };
};

/**
 * Serves `api` on the configured host and port. stop() (idempotent) drains (docs/operations.md,
 * "Graceful shutdown"): /readyz 503, the listener stops accepting and connections close after
 * their current response (RunningServer.close), live streams are told to reconnect elsewhere,
 * in-flight requests finish within the grace of SHUTDOWN_TIMEOUT_MS.
 */
export const servePublicApi = async (api: PublicApi, config: Config, connectionGate?: ConnectionGate): Promise<{ readonly url: string; stop(): Promise<void> }> => {
  // API workers count connections per address in their primary (one port, many processes).
  const settings = { ...edgeSettings(config, 'public'), ...(connectionGate ? { connectionGate } : {}) };
  const server = await listen(api.callback, config.host, config.port, settings, api.drainSignal);
  let stopping: Promise<void> | null = null;
  return {
    url: server.url,
    stop() {
      stopping ??= (async () => {
        const closing = server.close(drainGraceMs(config));
        await api.drain();
        await closing;
      })();
      return stopping;
    },
  };
};
