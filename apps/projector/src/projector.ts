import type { ChangeStream } from '@pubstream/change-stream';
import type { EventStore, EventSubscription, RecordedEvent } from '@pubstream/event-store';
import { FencedError, type Lease } from '@pubstream/read-model';
import { changeMessageOf } from './changeMessages.js';
import { decodeEvents, type SkippedEvent } from './decodeEvents.js';
import { measureLag } from './lag.js';
import { projectBatch } from './projectBatch.js';
import type { ProjectorStores } from './projectorStores.js';
import { PROJECTIONS, type PositionedOp, type Projection } from './projections/index.js';
import { createRateMeter } from './rateMeter.js';

/** The logging the projector needs; a pino logger fits. */
export interface ProjectorLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLogger: ProjectorLogger = { debug() {}, info() {}, warn() {}, error() {} };

export interface ProjectorLeaseOptions {
  /** Who we are (host:pid, pod name): shown to operators, never trusted for fencing. */
  readonly holder: string;
  readonly ttlMs: number;
  /** How often a standby tries to take the lease; ttlMs / 3 by default. */
  readonly pollMs?: number;
}

export interface ProjectorDeps {
  readonly eventStore: EventStore;
  /** Where it writes (projection store) and the reads its projections load, of one generation. */
  readonly stores: ProjectorStores;
  readonly changeStream: ChangeStream;
  readonly logger?: ProjectorLogger;
  readonly now?: () => Date;
  /** Events per batch (one read-model apply and one publish per batch). Default 500. */
  readonly batchSize?: number;
  /** The applied checkpoint's name; the published one is `${name}:published`. Default `projector`. */
  readonly name?: string;
  /** Distributed profile: only the holder of the read model's `projector` lease writes. */
  readonly lease?: ProjectorLeaseOptions;
  /** Default: the registry in projections/index.ts. */
  readonly projections?: readonly Projection[];
  /** Backoff after a backend error: starts at initialMs, doubles up to maxMs. */
  readonly retry?: { readonly initialMs?: number; readonly maxMs?: number };
}

export type ProjectorState = 'stopped' | 'waiting-for-lease' | 'starting' | 'running' | 'retrying';

export interface ProjectorStatus {
  readonly name: string;
  readonly state: ProjectorState;
  /** Position of the last event whose effects are in the read model. */
  readonly applied: number;
  /** Position up to which every change message has been published. */
  readonly published: number;
  /** Position of the last event in the log. */
  readonly head: number;
  /** Events in the log after `applied`. */
  readonly lagEvents: number;
  /** Age of the oldest event not yet applied, in seconds (0 when caught up). */
  readonly lagSeconds: number;
  /** Events applied per second over the last few seconds. */
  readonly eventsPerSecond: number;
}

export interface Projector {
  /** Starts projecting in the background (after taking the lease when one is configured). */
  start(): void;
  /** Stops after the current batch, releases the lease, resolves when idle. */
  stop(): Promise<void>;
  status(): Promise<ProjectorStatus>;
  /**
   * Resolves true once the applied checkpoint reaches `position` (read-your-writes for the admin
   * API), false when `timeoutMs` passes first.
   */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
}

export const publishedCheckpointName = (name: string): string => `${name}:published`;
export const PROJECTOR_LEASE = 'projector';

/** Raised inside the projector when it must stop writing because its lease is gone. */
class LeaseLostError extends Error {
  constructor(message = 'projector lease lost') {
    super(message);
    this.name = 'LeaseLostError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The projector (DESIGN.md §1): follows the event store from its checkpoint; per batch it folds
 * the events over the records they touch, applies the ops with the checkpoint (version-guarded,
 * so replays are harmless), publishes one change message per op, then moves a separate
 * "published" checkpoint. On start it republishes what lies between the two checkpoints, so a
 * crash between write and publish loses no change. Backend errors stop it advancing; it retries
 * with backoff from its checkpoint and never crashes the process.
 */
export const createProjector = (deps: ProjectorDeps): Projector => {
  const { eventStore, stores, changeStream } = deps;
  const store = stores.projections;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? 500;
  const name = deps.name ?? 'projector';
  const publishedName = publishedCheckpointName(name);
  const projections = deps.projections ?? PROJECTIONS;
  const retryInitialMs = deps.retry?.initialMs ?? 200;
  const retryMaxMs = deps.retry?.maxMs ?? 10_000;
  const rate = createRateMeter(now);

  let state: ProjectorState = 'stopped';
  let applied = 0;
  let published = 0;
  let loop: Promise<void> | null = null;
  let stopping = false;
  let wakeStop: () => void = () => {};
  let stopSignal: Promise<void> = Promise.resolve();
  const waiters = new Set<{ position: number; resolve: (reached: boolean) => void }>();

  const onSkip = (skipped: SkippedEvent): void => {
    const log = skipped.reason === 'unknown-type' ? logger.debug : logger.warn;
    log.call(logger, { position: skipped.position, type: skipped.type, err: skipped.error }, `projector skipped a ${skipped.reason} event`);
  };

  const setApplied = (position: number): void => {
    applied = Math.max(applied, position);
    for (const waiter of waiters) {
      if (applied >= waiter.position) {
        waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  };

  const leaseOption = (lease: Lease | null): { lease?: Lease } => (lease ? { lease } : {});

  const publishOps = async (ops: readonly PositionedOp[], position: number, lease: Lease | null): Promise<void> => {
    // Every op of the batch is announced, not only those `apply` reported as changed: after a
    // crash between a partial apply and its checkpoint, the redelivered ops are refused as
    // already applied, yet their messages were never sent. Consumers drop duplicates by version.
    if (ops.length > 0) await changeStream.publish(ops.map(changeMessageOf));
    await store.apply([], { projection: publishedName, position }, leaseOption(lease));
    published = position;
  };

  /** Re-derives and publishes the changes of (from, to]: what a crash left unannounced. */
  const republish = async (from: number, to: number, lease: Lease | null): Promise<void> => {
    logger.info({ from, to }, 'projector republishing changes committed before a restart');
    let batch: RecordedEvent[] = [];
    const flush = async (): Promise<void> => {
      const last = batch.at(-1);
      if (!last) return;
      const ops = await projectBatch(projections, stores, decodeEvents(batch, onSkip));
      await publishOps(ops, last.position, lease);
      batch = [];
    };
    for await (const event of eventStore.readAll({ after: from, until: to })) {
      batch.push(event);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    // Positions in (last event, to] hold nothing to publish.
    if (published < to) await publishOps([], to, lease);
  };

  /** Polls for the lease until it is ours (or we are stopping: null). */
  const acquireLease = async (options: ProjectorLeaseOptions): Promise<Lease | null> => {
    const pollMs = options.pollMs ?? Math.max(50, Math.floor(options.ttlMs / 3));
    let logged = false;
    while (!stopping) {
      try {
        const lease = await store.acquireLease(PROJECTOR_LEASE, options.holder, options.ttlMs);
        if (lease) {
          logger.info({ holder: lease.holder, token: lease.token }, 'projector lease acquired: this projector is active');
          return lease;
        }
        if (!logged) logger.info({ holder: options.holder }, 'projector standing by: another projector holds the lease');
        logged = true;
      } catch (err) {
        logger.error({ err }, 'projector could not reach the read model to take the lease');
      }
      await Promise.race([sleep(pollMs), stopSignal]);
    }
    return null;
  };

  /**
   * Renews the lease every ttl/3; calls `onLost` when a renewal says it is gone, or when renewals
   * have failed (backend unreachable) for longer than the ttl, after which another projector may
   * legitimately hold it.
   */
  const keepLease = (lease: Lease, options: ProjectorLeaseOptions, onLost: () => void): (() => void) => {
    let lastRenewed = now().getTime();
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      store
        .renewLease(lease, options.ttlMs)
        .then(
          (held) => {
            if (held) lastRenewed = now().getTime();
            else onLost();
          },
          (err: unknown) => {
            logger.warn({ err }, 'projector lease renewal failed');
            if (now().getTime() - lastRenewed >= options.ttlMs) onLost();
          },
        )
        .finally(() => {
          renewing = false;
        });
    }, Math.max(10, Math.floor(options.ttlMs / 3)));
    return () => clearInterval(timer);
  };

  /** One active period: from the checkpoints until stop, lease loss or a backend error. */
  const runOnce = async (): Promise<void> => {
    let lease: Lease | null = null;
    let stopKeeping = (): void => {};
    let subscription: EventSubscription | null = null;
    let leaseLost: (error: Error) => void = () => {};
    const interrupted = new Promise<never>((_resolve, reject) => {
      leaseLost = reject;
    });
    interrupted.catch(() => {});
    let lost = false;
    try {
      if (deps.lease) {
        state = 'waiting-for-lease';
        lease = await acquireLease(deps.lease);
        if (!lease) return;
        stopKeeping = keepLease(lease, deps.lease, () => {
          if (lost) return;
          lost = true;
          logger.warn({ token: lease?.token }, 'projector lease lost: stopping writes');
          leaseLost(new LeaseLostError());
        });
      }
      state = 'starting';
      const [appliedCheckpoint, publishedCheckpoint] = await Promise.all([store.getCheckpoint(name), store.getCheckpoint(publishedName)]);
      applied = appliedCheckpoint;
      setApplied(appliedCheckpoint);
      published = publishedCheckpoint;
      if (published < applied) await republish(published, applied, lease);
      if (stopping || lost) return;

      const held = lease;
      const handle = async (recorded: RecordedEvent[]): Promise<void> => {
        if (lost) throw new LeaseLostError();
        const last = recorded.at(-1);
        if (!last) return;
        const ops = await projectBatch(projections, stores, decodeEvents(recorded, onSkip));
        await store.apply(
          ops.map((o) => o.op),
          { projection: name, position: last.position },
          leaseOption(held),
        );
        setApplied(last.position);
        rate.record(recorded.length);
        await publishOps(ops, last.position, held);
        state = 'running';
      };
      subscription = eventStore.subscribeToAll({ after: applied, batchSize }, handle);
      state = 'running';
      logger.info({ applied, published }, 'projector following the event store');
      await Promise.race([subscription.done, interrupted, stopSignal]);
    } finally {
      stopKeeping();
      if (subscription) await subscription.close().catch(() => {});
      if (lease && !lost) await store.releaseLease(lease).catch(() => {});
    }
  };

  const runLoop = async (): Promise<void> => {
    let attempt = 0;
    while (!stopping) {
      try {
        await runOnce();
        attempt = 0;
      } catch (err) {
        if (stopping) break;
        if (err instanceof LeaseLostError || err instanceof FencedError) {
          logger.warn({ err }, 'projector fenced off: going back to standby');
          continue;
        }
        attempt += 1;
        const delay = Math.min(retryMaxMs, retryInitialMs * 2 ** (attempt - 1));
        state = 'retrying';
        logger.error({ err, attempt, retryInMs: delay, applied }, 'projector stopped on a backend error; retrying from its checkpoint');
        await Promise.race([sleep(delay), stopSignal]);
      }
    }
    state = 'stopped';
  };

  return {
    start() {
      if (loop) return;
      stopping = false;
      stopSignal = new Promise((resolve) => {
        wakeStop = resolve;
      });
      loop = runLoop().catch((err: unknown) => {
        // runLoop handles every error itself; this is a last line of defence, never a crash.
        logger.error({ err }, 'projector loop ended unexpectedly');
        state = 'stopped';
      });
    },

    async stop() {
      if (!loop) return;
      stopping = true;
      wakeStop();
      await loop;
      loop = null;
      for (const waiter of waiters) waiter.resolve(applied >= waiter.position);
      waiters.clear();
    },

    async status() {
      let appliedNow = applied;
      let publishedNow = published;
      if (state !== 'running') {
        // A standby or stopped projector reports what the active one has stored; while the read
        // model is unreachable, what this one last knew.
        try {
          [appliedNow, publishedNow] = await Promise.all([store.getCheckpoint(name), store.getCheckpoint(publishedName)]);
        } catch (err) {
          logger.warn({ err }, 'projector status: read model unreachable, reporting the last known checkpoints');
        }
      }
      const head = await eventStore.headPosition();
      const lag = await measureLag(eventStore, appliedNow, head, now);
      return { name, state, applied: appliedNow, published: publishedNow, head, lagEvents: lag.events, lagSeconds: lag.seconds, eventsPerSecond: rate.perSecond() };
    },

    waitFor(position, timeoutMs) {
      if (applied >= position) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (reached: boolean) => {
            clearTimeout(timer);
            resolve(reached);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(applied >= position);
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
};
