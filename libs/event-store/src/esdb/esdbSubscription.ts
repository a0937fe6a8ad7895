import { STREAM_PREFIXES } from '@pubstream/domain';
import { streamNameFilter, type AllStreamResolvedEvent, type EventStoreDBClient } from '@eventstore/db-client';
import type { EventSubscription, RecordedEvent } from '../eventStore.js';
import { handlerScope } from '../handlerScope.js';
import { runningSubscription } from '../runningSubscription.js';
import { isTransientEsdbError, toPortError } from './esdbErrors.js';
import { fromEsdbRecordedEvent, isPubstreamEvent } from './esdbEventMapping.js';
import { samePosition, toEsdbReadPosition } from './esdbPosition.js';
import { readableBatches } from './readableBatches.js';

export interface EsdbSubscriptionOptions {
  readonly after: number;
  readonly batchSize: number;
  /** Backoff between resubscriptions after transient errors: doubles from initial up to max. */
  readonly retry: { readonly initialDelayMs: number; readonly maxDelayMs: number };
  /** Told about every transient failure before the retry (for logs and metrics). */
  readonly onTransientError?: (error: unknown, retryInMs: number) => void;
}

class HandlerFailure {
  constructor(readonly error: unknown) {}
}

const noop = (): void => undefined;

/**
 * A catch-up subscription to `$all`, filtered on the server to our stream prefixes. Events arrive
 * in batches of what is buffered (at most batchSize); the handler is awaited before the next. On a
 * transient error (server restart, leader change, network) it resubscribes after the last
 * delivered position with backoff, so nothing is skipped or delivered twice. A handler error or a
 * non-transient error ends it: `done` rejects.
 */
export const startEsdbSubscription = (
  client: Pick<EventStoreDBClient, 'subscribeToAll'>,
  options: EsdbSubscriptionOptions,
  handler: (events: RecordedEvent[]) => Promise<void>,
): EventSubscription => {
  let closed = false;
  let stopWaiting = noop;
  let unsubscribeCurrent: () => Promise<void> = async () => undefined;

  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopWaiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const deliver = async (subscription: EventSubscription, events: RecordedEvent[]): Promise<void> => {
    try {
      await handlerScope.run(subscription, () => handler(events));
    } catch (error) {
      throw new HandlerFailure(error);
    }
  };

  const run = async (subscription: EventSubscription): Promise<void> => {
    let cursor = options.after;
    let delay = options.retry.initialDelayMs;
    while (!closed) {
      const from = toEsdbReadPosition(cursor);
      const resumeAt = typeof from === 'string' ? undefined : from;
      const source = client.subscribeToAll({ fromPosition: from, filter: streamNameFilter({ prefixes: [...STREAM_PREFIXES] }) });
      unsubscribeCurrent = async () => {
        await source.unsubscribe().catch(noop);
        // Cancelling the gRPC call does not always end the readable side: destroy it so readers finish.
        source.destroy();
      };
      let failure: unknown; // stays undefined when the server just ended the stream: resubscribe too
      try {
        for await (const batch of readableBatches<AllStreamResolvedEvent>(source, options.batchSize)) {
          if (closed) return;
          delay = options.retry.initialDelayMs;
          const events = batch.flatMap((resolved) =>
            resolved.event && isPubstreamEvent(resolved.event) && !samePosition(resolved.event.position, resumeAt)
              ? [fromEsdbRecordedEvent(resolved.event)]
              : [],
          );
          const last = events.at(-1);
          if (!last) continue;
          await deliver(subscription, events);
          cursor = last.position;
        }
      } catch (error) {
        if (error instanceof HandlerFailure) throw error.error;
        failure = error;
      } finally {
        await unsubscribeCurrent();
      }
      if (closed) return;
      if (failure !== undefined && !isTransientEsdbError(failure)) throw toPortError(failure);
      options.onTransientError?.(failure, delay);
      await pause(delay);
      delay = Math.min(delay * 2, options.retry.maxDelayMs);
    }
  };

  return runningSubscription(run, async () => {
    closed = true;
    stopWaiting();
    await unsubscribeCurrent();
  });
};
