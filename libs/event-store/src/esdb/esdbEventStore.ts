import { randomUUID } from 'node:crypto';
import { StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import type { AppendResult, EventStore, RecordedEvent, StreamAppend } from '../eventStore.js';
import { createSubscriptionSet } from '../subscriptionSet.js';
import { toPortError } from './esdbErrors.js';
import { fromEsdbRecordedEvent, toEsdbEventData } from './esdbEventMapping.js';
import { toEsdbExpectedRevision } from './esdbExpectedRevision.js';
import { toPortPosition } from './esdbPosition.js';
import { esdbHeadPosition, readAllFromEsdb } from './esdbReadAll.js';
import { startEsdbSubscription } from './esdbSubscription.js';
import { type AppendOne, appendAllInTurn, appendEachInTurn } from './sequentialAppends.js';

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

/**
 * The event store port on EventStoreDB / KurrentDB. The server checks expected revisions and
 * deduplicates retried event ids; this adapter maps types and errors, filters `$all` to our
 * streams, and resubscribes after transient errors. appendToStreams and appendAll are NOT atomic
 * here: entries are appended one after another. close() disposes `client`.
 */
export const createEsdbEventStore = (client: EventStoreDBClient, options: EsdbEventStoreOptions = {}): EventStore => {
  const newEventId = options.newEventId ?? randomUUID;
  const pageSize = options.readPageSize ?? 500;
  const subscriptions = createSubscriptionSet();
  const appendOne: AppendOne = (entry) => appendToEsdbStream(client, entry, newEventId);

  return {
    appendToStream: (streamName, events, { expectedRevision }) => appendOne({ streamName, events, expectedRevision }),
    appendToStreams: (batch) => appendEachInTurn(appendOne, batch),
    appendAll: (batch) => appendAllInTurn(appendOne, batch),
    readStream: (streamName) => readEsdbStream(client, streamName),
    readAll: (readOptions = {}) => readAllFromEsdb(client, readOptions, pageSize),
    subscribeToAll(subscribeOptions, handler) {
      const settings = {
        after: subscribeOptions.after,
        batchSize: subscribeOptions.batchSize ?? options.defaultBatchSize ?? 500,
        retry: options.retry ?? { initialDelayMs: 100, maxDelayMs: 5_000 },
        onTransientError: options.onTransientError,
      };
      return subscriptions.track(startEsdbSubscription(client, settings, handler));
    },
    headPosition: () => esdbHeadPosition(client, Math.min(pageSize, 100)),
    async close() {
      await subscriptions.closeAll();
      await client.dispose();
    },
  };
};

async function appendToEsdbStream(client: EventStoreDBClient, entry: StreamAppend, newEventId: () => string): Promise<AppendResult> {
  try {
    const events = entry.events.map((event) => toEsdbEventData(event, newEventId));
    const result = await client.appendToStream(entry.streamName, events, { expectedRevision: toEsdbExpectedRevision(entry.expectedRevision) });
    return { nextRevision: Number(result.nextExpectedRevision), position: result.position ? toPortPosition(result.position) : 0 };
  } catch (error) {
    throw toPortError(error, entry.streamName);
  }
}

async function readEsdbStream(client: EventStoreDBClient, streamName: string): Promise<RecordedEvent[]> {
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
}
