import { STREAM_PREFIXES } from '@pubstream/domain';
import { streamNameFilter, type AllStreamResolvedEvent, type EventStoreDBClient } from '@eventstore/db-client';
import type { EventSubscription, RecordedEvent } from '../eventStore.js';
import { runningSubscription, type Deliver } from '../runningSubscription.js';
import { isTransientEsdbError, toPortError } from './esdbErrors.js';
import { portEventsOfBatch } from './esdbEventMapping.js';
import { toEsdbReadPosition } from './esdbPosition.js';
import { createCancellablePause } from './cancellablePause.js';
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

type SubscribeClient = Pick<EventStoreDBClient, 'subscribeToAll'>;

/** What the delivery loop and its sessions share. */
interface LoopState {
  closed: boolean;
  /** Position of the last delivered event. */
  cursor: number;
  unsubscribeCurrent: () => Promise<void>;
}

/**
 * A catch-up subscription to `$all`, filtered on the server to our stream prefixes. Events arrive
 * in batches of what is buffered (at most batchSize); the handler is awaited before the next. On a
 * transient error (server restart, leader change, network) it resubscribes after the last
 * delivered position with backoff, so nothing is skipped or delivered twice. A handler error or a
 * non-transient error ends it: `done` rejects.
 */
export const startEsdbSubscription = (
  client: SubscribeClient,
  options: EsdbSubscriptionOptions,
  handler: (events: RecordedEvent[]) => Promise<void>,
): EventSubscription => {
  const state: LoopState = { closed: false, cursor: options.after, unsubscribeCurrent: async () => undefined };
  const pause = createCancellablePause();

  const run = async (deliverToHandler: Deliver): Promise<void> => {
    let delay = options.retry.initialDelayMs;
    const deliver = async (events: RecordedEvent[]): Promise<void> => {
      try {
        await deliverToHandler(events);
      } catch (error) {
        throw new HandlerFailure(error);
      }
    };
    while (!state.closed) {
      const session = await runSession(client, options.batchSize, state, deliver);
      if (session.delivered) delay = options.retry.initialDelayMs;
      if (state.closed) return;
      if (session.failure !== undefined && !isTransientEsdbError(session.failure)) throw toPortError(session.failure);
      options.onTransientError?.(session.failure, delay);
      await pause.wait(delay);
      delay = Math.min(delay * 2, options.retry.maxDelayMs);
    }
  };

  return runningSubscription(handler, run, async () => {
    state.closed = true;
    pause.stop();
    await state.unsubscribeCurrent();
  });
};

/**
 * One server subscription from the cursor, until it ends, fails or the loop closes. Returns the
 * failure (undefined when the server just ended the stream: resubscribe too) and whether any
 * batch arrived (which resets the backoff). A handler error (a HandlerFailure from `deliver`) is thrown.
 */
async function runSession(
  client: SubscribeClient,
  batchSize: number,
  state: LoopState,
  deliver: (events: RecordedEvent[]) => Promise<void>,
): Promise<{ failure: unknown; delivered: boolean }> {
  const from = toEsdbReadPosition(state.cursor);
  const resumedAt = typeof from === 'string' ? undefined : from;
  const source = client.subscribeToAll({ fromPosition: from, filter: streamNameFilter({ prefixes: [...STREAM_PREFIXES] }) });
  state.unsubscribeCurrent = async () => {
    await source.unsubscribe().catch(noop);
    // Cancelling the gRPC call does not always end the readable side: destroy it so readers finish.
    source.destroy();
  };
  let delivered = false;
  try {
    for await (const batch of readableBatches<AllStreamResolvedEvent>(source, batchSize)) {
      if (state.closed) return { failure: undefined, delivered };
      delivered = true;
      const events = portEventsOfBatch(batch, resumedAt);
      const last = events.at(-1);
      if (!last) continue;
      await deliver(events);
      state.cursor = last.position;
    }
    return { failure: undefined, delivered };
  } catch (error) {
    if (error instanceof HandlerFailure) throw error.error;
    return { failure: error, delivered };
  } finally {
    await state.unsubscribeCurrent();
  }
}
