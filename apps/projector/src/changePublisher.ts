import type { ChangeMessage, ChangeStream } from '@pubstream/change-stream';
import type { EventStore } from '@pubstream/event-store';
import { FencedError, type Lease, type ProjectionStore } from '@pubstream/read-model';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { changeMessagesOf } from './changeMessages.js';
import { decodeEvents, type SkippedEvent } from './decodeEvents.js';
import type { KeyHashResolver } from './keyHashResolver.js';
import { pause } from './pause.js';
import type { PositionWatch } from './positionWatch.js';
import type { ProjectedEvent } from './projections/projection.js';
import type { RecentBatches } from './recentBatches.js';
import type { ProjectorLogger } from './projectorLogger.js';

export type PublisherState = 'idle' | 'publishing' | 'retrying';

export interface PublisherDeps {
  readonly eventStore: Pick<EventStore, 'readAll'>;
  readonly store: Pick<ProjectionStore, 'apply'>;
  readonly changeStream: Pick<ChangeStream, 'publish'>;
  readonly keyHashes: KeyHashResolver;
  /** The published checkpoint's name. */
  readonly checkpoint: string;
  /** Events read and announced per publish at most. */
  readonly batchSize: number;
  /** JSON bytes per publish at most (one message more when a single one is larger): a catch-up never sends one huge request. */
  readonly maxBytes: number;
  readonly lease: Lease | null;
  /** What the applier has stored: the publisher never announces past it. */
  readonly applied: PositionWatch;
  /** The applier's last batches, decoded: used instead of the log when they start at the cursor. */
  readonly recent?: RecentBatches;
  readonly retry: BackoffOptions;
  readonly logger: ProjectorLogger;
  readonly onSkip: (skipped: SkippedEvent) => void;
  /** After each published batch: the new published position and how many messages went out. */
  readonly onPublished: (position: number, messages: number) => void;
  readonly onState: (state: PublisherState) => void;
}

export interface PendingChanges {
  /** The published position once these messages are out. */
  readonly to: number;
  readonly messages: ChangeMessage[];
}

/** The events of (published, applied], at most `batchSize`: the applier's own batch when kept, else read from the log. */
const eventsAfter = async (deps: PublisherDeps, published: number, applied: number): Promise<{ to: number; events: readonly ProjectedEvent[] }> => {
  const kept = deps.recent?.startingAfter(published);
  if (kept && kept.to <= applied) return kept;
  const recorded = [];
  for await (const event of deps.eventStore.readAll({ after: published, until: applied, maxCount: deps.batchSize })) recorded.push(event);
  // A full batch ends at its last event; a short one covers the whole range (positions need not be dense).
  const to = recorded.length >= deps.batchSize ? (recorded.at(-1)?.position ?? applied) : applied;
  return { to, events: decodeEvents(recorded, deps.onSkip) };
};

/**
 * The next batch to announce after `published`, derived from the log (the outbox): the events in
 * (published, applied], at most `batchSize` of them and about `maxBytes` of messages, in log order.
 */
export const nextChanges = async (deps: PublisherDeps, published: number, applied: number): Promise<PendingChanges> => {
  const { to, events } = await eventsAfter(deps, published, applied);
  const messages = changeMessagesOf(events, await deps.keyHashes(events));
  let bytes = 0;
  for (let i = 0; i < messages.length; i++) {
    bytes += JSON.stringify(messages[i]).length;
    // Cut after the message that crossed the bound; the rest is read again for the next batch.
    if (bytes > deps.maxBytes && i < messages.length - 1) return { to: (messages[i] as ChangeMessage).position, messages: messages.slice(0, i + 1) };
  }
  return { to, messages };
};

/** `work`, or undefined as soon as `signal` aborts (a publish to a dead broker is left behind). */
const unlessAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(undefined);
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

/**
 * The publisher (docs/projections.md): its own cursor, the published checkpoint, follows the
 * applied one. It announces (published, applied] in order, batch after batch, then stores the new
 * published position (fenced by the lease). When the change stream or a backend fails it waits
 * (jittered backoff, ≤ retry.maxMs) and tries the same batch again; the applier never waits for
 * it. Rethrows FencedError (the lease is gone); returns when `signal` aborts.
 */
export const runPublisher = async (deps: PublisherDeps, from: number, signal: AbortSignal): Promise<void> => {
  let published = from;
  let attempt = 0;
  while (!signal.aborted) {
    if (published >= deps.applied.get()) {
      deps.onState('idle');
      await deps.applied.passes(published, signal);
      continue;
    }
    try {
      deps.onState(attempt === 0 ? 'publishing' : 'retrying');
      const pending = await nextChanges(deps, published, deps.applied.get());
      if (pending.messages.length > 0 && (await unlessAborted(deps.changeStream.publish(pending.messages).then(() => true), signal)) === undefined) break;
      await deps.store.apply([], { projection: deps.checkpoint, position: pending.to }, deps.lease ? { lease: deps.lease } : {});
      published = pending.to;
      attempt = 0;
      deps.onPublished(published, pending.messages.length);
    } catch (err) {
      if (err instanceof FencedError) throw err;
      if (signal.aborted) break;
      attempt += 1;
      const delay = backoffDelay(attempt, deps.retry);
      deps.onState('retrying');
      deps.logger.warn({ err, attempt, retryInMs: delay, published }, 'projector could not publish its changes; retrying (reads stay fresh)');
      await pause(delay, signal);
    }
  }
};
