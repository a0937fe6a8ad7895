import { randomUUID } from 'node:crypto';
import { StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import type { AppendResult, EventStore, EventSubscription, StreamAppendOutcome } from '../eventStore.js';
import { PartialAppendError } from '../partialAppendError.js';
import { toPortError } from './esdbErrors.js';
import { fromEsdbRecordedEvent, toEsdbEventData } from './esdbEventMapping.js';
import { toEsdbExpectedRevision } from './esdbExpectedRevision.js';
import { toPortPosition } from './esdbPosition.js';
import { esdbHeadPosition, readAllFromEsdb } from './esdbReadAll.js';
import { startEsdbSubscription } from './esdbSubscription.js';

export interface EsdbEventStoreOptions {
  readonly newEventId?: () => string;
  /** Events per subscription delivery when the subscriber does not say (default 500). */
  readonly defaultBatchSize?: number;
  /** Records per `$all` page in readAll and headPosition (default 500). */
  readonly readPageSize?: number;
  /** Resubscription backoff after transient errors (default 100 ms doubling to 5 s). */
  readonly retry?: { readonly initialDelayMs: number; readonly maxDelayMs: number };
  readonly onTransientError?: (error: unknown, retryInMs: number) => void;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * The event store port on EventStoreDB / KurrentDB. The server checks expected revisions and
 * deduplicates retried event ids; this adapter maps types and errors, filters `$all` to our
 * streams, and resubscribes after transient errors. appendToStreams and appendAll are NOT atomic
 * here: entries are appended one after another. close() disposes `client`.
 */
export const createEsdbEventStore = (client: EventStoreDBClient, options: EsdbEventStoreOptions = {}): EventStore => {
  const newEventId = options.newEventId ?? randomUUID;
  const pageSize = options.readPageSize ?? 500;
  const subscriptions = new Set<EventSubscription>();

  const appendToStream: EventStore['appendToStream'] = async (streamName, events, { expectedRevision }) => {
    try {
      const result = await client.appendToStream(
        streamName,
        events.map((event) => toEsdbEventData(event, newEventId)),
        { expectedRevision: toEsdbExpectedRevision(expectedRevision) },
      );
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: result.position ? toPortPosition(result.position) : 0,
      };
    } catch (error) {
      throw toPortError(error, streamName);
    }
  };

  return {
    appendToStream,

    async appendToStreams(batch) {
      const outcomes: StreamAppendOutcome[] = [];
      for (const entry of batch) {
        try {
          const result = await appendToStream(entry.streamName, entry.events, { expectedRevision: entry.expectedRevision });
          outcomes.push({ ok: true, result });
        } catch (error) {
          outcomes.push({ ok: false, error: asError(error) });
        }
      }
      return outcomes;
    },

    async appendAll(batch) {
      // Not atomic (see the port): entry after entry, stopping at the first failure.
      const written: AppendResult[] = [];
      for (const entry of batch) {
        try {
          written.push(await appendToStream(entry.streamName, entry.events, { expectedRevision: entry.expectedRevision }));
        } catch (error) {
          throw written.length === 0 ? error : new PartialAppendError(written, error);
        }
      }
      return written;
    },

    async readStream(streamName) {
      try {
        const events = [];
        for await (const resolved of client.readStream(streamName)) {
          if (resolved.event) events.push(fromEsdbRecordedEvent(resolved.event));
        }
        return events;
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw toPortError(error, streamName);
      }
    },

    readAll(readOptions = {}) {
      return readAllFromEsdb(client, readOptions, pageSize);
    },

    subscribeToAll(subscribeOptions, handler) {
      const subscription = startEsdbSubscription(
        client,
        {
          after: subscribeOptions.after,
          batchSize: subscribeOptions.batchSize ?? options.defaultBatchSize ?? 500,
          retry: options.retry ?? { initialDelayMs: 100, maxDelayMs: 5_000 },
          onTransientError: options.onTransientError,
        },
        handler,
      );
      subscriptions.add(subscription);
      const forget = (): boolean => subscriptions.delete(subscription);
      void subscription.done.then(forget, forget);
      return subscription;
    },

    headPosition() {
      return esdbHeadPosition(client, Math.min(pageSize, 100));
    },

    async close() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await client.dispose();
    },
  };
};
