import { randomUUID } from 'node:crypto';
import type { Config } from '@pubstream/config';
import { createLogger, createMetricsRegistry, type Logger } from '@pubstream/observability';
import { createProjector, createProjectorHttpHandler, registerProjectorMetrics, type Projector } from '@pubstream/projector';
import { openChangeStream, openEventStore, openStores, processIdentity } from '../adapters.js';
import { watchCaughtUp } from '../caughtUpWatch.js';
import { createCleanupStack, startOrUndo } from '../cleanupStack.js';
import type { RunningProcess } from '../distributedProcesses.js';
import { edgeSettings, listen } from '../httpServer.js';
import { DEFAULT_LEASE_TTL_MS, type ProjectorNodeOptions } from './config.js';
import { crashBeforePublish } from './crashBeforePublish.js';

const ROLE_POLL_MS = 100;

/** Logs one line each time this process becomes the active projector or a standby. */
const watchRole = (projector: Projector, logger: Logger, holder: string): (() => void) => {
  let shown: string | null = null;
  const timer = setInterval(() => {
    const snap = projector.snapshot();
    const line = snap.active ? 'projector active' : snap.state === 'waiting-for-lease' ? 'projector standby' : null;
    if (line === null || line === shown) return;
    shown = line;
    logger.info({ holder, applied: snap.applied, published: snap.published }, line);
  }, ROLE_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * `pubstream projector` (docs/distributed.md): follows the event log into the Redis read model
 * and publishes the changes to Kafka from its own cursor. Several may run; only the holder of the
 * `projector` lease in Redis writes (every write is fenced by its holder id and token), the others
 * stand by. Serves /healthz, /readyz and /metrics on ADMIN_HOST:PROJECTOR_PORT. On stop, /readyz
 * answers 503 at once and the lease is released as soon as the current batch is stored.
 */
export const runProjectorNode = async (
  config: Config,
  options: ProjectorNodeOptions = { leaseTtlMs: DEFAULT_LEASE_TTL_MS, exitBeforePublishProbability: 0 },
  logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-projector' }),
): Promise<RunningProcess> => {
  const now = () => new Date();
  // Unique per process even where host names and pids repeat (containers): fencing compares it.
  const holder = `${processIdentity('projector')}:${randomUUID().slice(0, 8)}`;
  const cleanups = createCleanupStack((error) => logger.warn({ err: error }, 'error while stopping'));
  let draining = false;
  return startOrUndo(cleanups, async () => {
    const eventStore = openEventStore(config, now);
    cleanups.push(() => eventStore.close());
    const { stores } = await openStores(config, logger, now);
    cleanups.push(() => stores.close());
    const kafka = openChangeStream(config, logger, holder);
    cleanups.push(() => kafka.close());
    const changeStream = crashBeforePublish(kafka, options.exitBeforePublishProbability, () =>
      logger.warn({}, 'fault injection: exiting between a read-model write and its publish'),
    );
    const projector = createProjector({ eventStore, stores, changeStream, logger: logger.child({ component: 'projector' }), now, lease: { holder, ttlMs: options.leaseTtlMs }, resumeWindowMs: config.resumeWindowMs });
    const metrics = createMetricsRegistry({ app: 'projector' });
    registerProjectorMetrics(metrics, { eventStore, checkpoints: stores.projections, snapshot: projector.snapshot, now });
    const server = await listen(createProjectorHttpHandler({ snapshot: projector.snapshot, metrics, draining: () => draining }), config.adminHost, config.projectorPort, edgeSettings(config, 'public'));
    cleanups.push(() => server.close(config.shutdownTimeoutMs));
    projector.start();
    cleanups.push(() => projector.stop());
    cleanups.push(watchCaughtUp(projector, stores.projections, { onError: (error) => logger.debug({ err: error }, 'caught-up marker not refreshed') }));
    const unwatch = watchRole(projector, logger, holder);
    cleanups.push(async () => unwatch());
    // Registered last, so it runs first: /readyz answers 503 from the first moment of a stop.
    cleanups.push(async () => {
      draining = true;
    });
    logger.info({ holder, leaseTtlMs: options.leaseTtlMs, url: server.url }, 'projector started');
    return { url: server.url, stop: cleanups.stop };
  });
};
