import type { Config } from '@pubstream/config';
import { createLogger, type Logger } from '@pubstream/observability';
import { createProjector, type Projector, type ProjectorState } from '@pubstream/projector';
import { openChangeStream, openEventStore, openStores, processIdentity } from '../adapters.js';
import { watchCaughtUp } from '../caughtUpWatch.js';
import { createCleanupStack, startOrUndo } from '../cleanupStack.js';
import type { RunningProcess } from '../distributedProcesses.js';
import { DEFAULT_LEASE_TTL_MS, type ProjectorNodeOptions } from './config.js';
import { crashBeforePublish } from './crashBeforePublish.js';

const STATE_POLL_MS = 250;

/** What an operator reads in the log when this process changes role. */
const roleLine = (state: ProjectorState): string | null =>
  state === 'running' ? 'projector active' : state === 'waiting-for-lease' ? 'projector standby' : null;

/**
 * `pubstream projector`: follows the event log into the Redis read model and publishes each change
 * to Kafka. Several may run; only the holder of the `projector` lease in Redis writes (every write
 * carries its fencing token), the others stand by and take over within the lease TTL. Logs one line
 * per change of role: "projector active" / "projector standby".
 */
export const runProjectorNode = async (
  config: Config,
  options: ProjectorNodeOptions = { leaseTtlMs: DEFAULT_LEASE_TTL_MS, exitBeforePublishProbability: 0 },
  logger: Logger = createLogger({ level: config.logLevel, name: 'pubstream-projector' }),
): Promise<RunningProcess> => {
  const now = () => new Date();
  const holder = processIdentity('projector');
  const cleanups = createCleanupStack((error) => logger.warn({ err: error }, 'error while stopping'));
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
    const projector = createProjector({ eventStore, stores, changeStream, logger: logger.child({ component: 'projector' }), now, lease: { holder, ttlMs: options.leaseTtlMs },
      // While Redis or Kafka is away, try again at least every 2 s so that recovery is quick.
      retry: { initialMs: 200, maxMs: 2_000 },
    });
    projector.start();
    cleanups.push(() => projector.stop());
    cleanups.push(watchCaughtUp(projector, stores.projections)); // issue 23: the caught-up marker (docs/read-models.md)
    const stopWatching = logRoleChanges(projector, (details, line) => logger.info({ holder, ...details }, line));
    cleanups.push(async () => stopWatching());
    logger.info({ holder, leaseTtlMs: options.leaseTtlMs }, 'projector started');
    return { url: null, stop: cleanups.stop };
  });
};

/** Logs one line each time the projector's role changes (active / standby); returns what stops it. */
const logRoleChanges = (projector: Pick<Projector, 'status'>, log: (details: { applied: number; published: number }, line: string) => void): (() => void) => {
  let shown: string | null = null;
  const watch = setInterval(() => {
    projector.status().then(
      (status) => {
        const line = roleLine(status.state);
        if (line !== null && line !== shown) {
          shown = line;
          log({ applied: status.applied, published: status.published }, line);
        }
      },
      () => {},
    );
  }, STATE_POLL_MS);
  watch.unref();
  return () => clearInterval(watch);
};
