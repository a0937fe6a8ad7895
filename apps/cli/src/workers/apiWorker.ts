import cluster from 'node:cluster';
import type { Config } from '@pubstream/config';
import { BackendErrorTally, createMetricsRegistry, type Logger } from '@pubstream/observability';
import { registerProjectorMetrics, type Projector } from '@pubstream/projector';
import { createCleanupStack, startOrUndo, type CleanupStack } from '../cleanupStack.js';
import { startApiProcess } from '../distributedProcesses.js';
import { startEmbeddedCore } from '../embeddedCore.js';
import { createPublicApi, servePublicApi, type PublicApi } from '../publicApi.js';
import { positionHandlers } from './allWorkersWaiter.js';
import { primaryChannel } from './ipcChannels.js';
import { createIpcConnectionGate } from './ipcConnectionGate.js';
import { createIpcRateLimiter } from './ipcRateLimiter.js';
import { createIpcStreamSlots } from './ipcStreamSlots.js';
import { createIpcUsageStore } from './ipcUsageStore.js';
import { createIpcClient, serveIpc, type IpcChannel, type IpcClient } from './workerIpc.js';
import { isWorkerMessage, WORKER_BOOTED, WORKER_CALL_TIMEOUT_MS, WORKER_LISTEN, WORKER_OPEN, WORKER_READY, WORKER_STOP, type WorkerListening } from './workerMessages.js';

/** Resolves when the primary sends `expected` (workerMessages.ts). */
const whenPrimarySays = (channel: IpcChannel, expected: { readonly kind: string }): Promise<void> =>
  new Promise((resolve) => {
    const stopListening = channel.onMessage((message) => {
      if (!isWorkerMessage(message, expected)) return;
      stopListening();
      resolve();
    });
  });

/**
 * One API worker (docs/architecture.md, "API workers"), serving the public API on the port it
 * shares with the other workers. `followLog` (`pubstream start`, SQLite file, memory stores): its
 * own projector follows the log into its own memory stores and in-process change stream (so its
 * streams get every change); rate limits, stream slots and usage are the primary's, over IPC.
 * `shared`: a plain `pubstream api` process on Redis and Kafka, which are shared already. Runs
 * until the primary says stop (or SIGTERM/SIGINT), drains, and exits.
 */
export const runApiWorker = async (config: Config, logger: Logger, mode: 'followLog' | 'shared'): Promise<void> => {
  const channel = primaryChannel();
  const primary = createIpcClient(channel, { timeoutMs: WORKER_CALL_TIMEOUT_MS });
  let projectorReady: (projector: Projector) => void = () => {};
  const projector = new Promise<Projector>((resolve) => (projectorReady = resolve));
  // Registered first: the primary may ask a worker that is still replaying the log (allWorkersWaiter.ts).
  serveIpc(channel, positionHandlers(() => projector));
  const opened = whenPrimarySays(channel, WORKER_OPEN);
  const asked = whenPrimarySays(channel, WORKER_LISTEN);
  const cleanups = createCleanupStack((error) => logger.warn({ err: error }, 'error while stopping'));
  cleanups.push(async () => primary.close());
  const stop = (): void => void cleanups.stop().finally(() => process.exit(0));
  channel.onMessage((message) => isWorkerMessage(message, WORKER_STOP) && stop());
  // A signal to the whole process group (Ctrl-C) reaches the workers too: each drains itself.
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  channel.send(WORKER_BOOTED);
  const url = await startOrUndo(cleanups, async () => {
    await opened;
    if (mode === 'shared') {
      channel.send(WORKER_READY);
      await asked;
      return serveSharedWorker(config, logger, cleanups);
    }
    const publicApi = await followingWorkerApi(config, logger, cleanups, primary, projectorReady);
    channel.send(WORKER_READY);
    await asked;
    const server = await servePublicApi(publicApi, config, createIpcConnectionGate(primary));
    cleanups.push(() => server.stop());
    return server.url;
  });
  const listening: WorkerListening = { kind: 'pubstream-worker-listening', url };
  channel.send(listening);
  logger.info({ url }, 'API worker listening');
};

/** The public API of a worker that follows the log: its own read model, the primary's limits, slots and usage. */
const followingWorkerApi = async (config: Config, logger: Logger, cleanups: CleanupStack, primary: IpcClient, projectorReady: (projector: Projector) => void): Promise<PublicApi> => {
  const now = () => new Date();
  const backendErrors = new BackendErrorTally();
  const core = await startEmbeddedCore(config, logger, now, cleanups, backendErrors);
  projectorReady(core.projector);
  // The `worker` label tells the workers' series apart: a scrape of the shared port reaches one of them.
  const metrics = createMetricsRegistry({ app: 'api', collectDefaults: false });
  metrics.setDefaultLabels({ app: 'api', worker: String(cluster.worker?.id ?? 0) });
  registerProjectorMetrics(metrics, { eventStore: core.eventStore, checkpoints: core.stores.projections, snapshot: core.projector.snapshot, now });
  const { stores } = core;
  const publicApi = await createPublicApi({
    config,
    stores: { readModel: stores.readModel, history: stores.history, keys: stores.keys, usage: createIpcUsageStore(primary), ping: () => stores.ping() },
    changeStream: core.changeStream,
    logger: logger.child({ component: 'api' }),
    now,
    metrics,
    backendErrors,
    // In front of the in-memory stores a cache only adds staleness.
    cacheTtlMs: 0,
    rateLimiter: createIpcRateLimiter(primary),
    streamSlots: createIpcStreamSlots(primary),
    // Per-address caps count every worker's streams and connections (docs/security.md).
    addressSlots: createIpcStreamSlots(primary),
    positionWaiter: { reached: (position, timeoutMs) => core.projector.waitFor(position, timeoutMs), close: () => {} },
  });
  cleanups.push(() => publicApi.close());
  return publicApi;
};

/** A worker on Redis and Kafka: the `pubstream api` process as it is (its limits and slots are in Redis). */
const serveSharedWorker = async (config: Config, logger: Logger, cleanups: CleanupStack): Promise<string> => {
  const running = await startApiProcess(config, logger, cluster.worker?.id ?? 0);
  cleanups.push(() => running.stop());
  return running.url ?? '';
};
