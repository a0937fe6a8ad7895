import type { ChangeStream } from '@pubstream/change-stream';
import type { Config } from '@pubstream/config';
import type { EventStore } from '@pubstream/event-store';
import type { BackendErrorTally, Logger } from '@pubstream/observability';
import { createProjector, type Projector } from '@pubstream/projector';
import type { RedisReadModelClient, Stores } from '@pubstream/read-model';
import { openChangeStream, openEventStore, openStores, processIdentity } from './adapters.js';
import { watchCaughtUp } from './caughtUpWatch.js';
import type { CleanupStack } from './cleanupStack.js';

/** The log, the stores, the change stream and the projector of one process, caught up with the log. */
export interface EmbeddedCore {
  readonly eventStore: EventStore;
  readonly stores: Stores;
  readonly redis: RedisReadModelClient | null;
  readonly changeStream: ChangeStream;
  readonly projector: Projector;
  /** The log's head position when the process started. */
  readonly head: number;
}

/**
 * Opens the configured adapters and runs a projector from the log into them, resolving once it has
 * applied the log's head (the memory stores start empty). The all-in-one's core, and each API
 * worker's (docs/architecture.md, "API workers"), which follows the same SQLite file.
 */
export const startEmbeddedCore = async (config: Config, logger: Logger, now: () => Date, cleanups: CleanupStack, errors: BackendErrorTally): Promise<EmbeddedCore> => {
  const eventStore = openEventStore(config, now, { servesRequests: true });
  cleanups.push(() => eventStore.close());
  const { stores, redis } = await openStores(config, logger, now, { servesRequests: true, errors });
  cleanups.push(() => stores.close());
  const changeStream = openChangeStream(config, logger.child({ component: 'change-stream' }), processIdentity('all-in-one'), errors);
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
