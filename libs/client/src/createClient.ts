import { type Clock, systemClock } from './clock.js';
import type { PubstreamError } from './errors.js';
import { type EventSourceConstructor, resolveEventSource } from './eventSourceResolver.js';
import type { FetchLike } from './httpTransport.js';
import { createLiveSubscription, type LiveSubscription } from './liveSubscription.js';
import { createLocalCopy, type WatchedItem } from './localCopy.js';
import { localCopySink } from './localCopySink.js';
import { createReadMethods } from './readMethods.js';
import { defaultRetryPolicy, type RetryPolicy } from './retryPolicy.js';
import type { RetryListener } from './runWithRetry.js';
import { defaultStreamTuning, type StreamTuning } from './streamTuning.js';
import type {
  BatchResult,
  ChangesOptions,
  CollectionPage,
  ConnectedEvent,
  DataItem,
  FetchBatchOptions,
  FetchCollectionOptions,
  ItemChange,
  RequestOptions,
} from './types.js';
import { createWatcherRegistry, type Unsubscribe } from './watcherRegistry.js';

export type { Unsubscribe } from './watcherRegistry.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Base address of the service, e.g. `https://data.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Public API key (`pk_live_…` or `pk_test_…`). */
  apiKey: string;
  /** `fetch` to use; defaults to the global one. */
  fetch?: FetchLike;
  /** Switches on {@link PubstreamClient.watchData} / {@link PubstreamClient.watchCollection} over `/subscribe`. */
  reactive?: boolean;
  /** Retry policy of the read methods; also shapes the stream's reconnect backoff. */
  retry?: Partial<RetryPolicy>;
  /** EventSource constructor for the stream; defaults to the global one, else the `eventsource` package. */
  EventSource?: EventSourceConstructor;
  /** Called with every stream problem (each one is retried unless the server refused the subscription). */
  onStreamError?: (error: PubstreamError) => void;
  /** Called after each (re)connect of the stream. */
  onStreamConnected?: (event: ConnectedEvent) => void;
  /** Called before each retry wait of a read method. */
  onRetry?: RetryListener;
  /** Stream timing details. */
  stream?: Partial<StreamTuning>;
  /** Time sources (tests inject a fake one). */
  clock?: Partial<Clock>;
}

/** The Pubstream client. */
export interface PubstreamClient {
  /** `GET /public/data/{dataId}`: one item with every field. */
  fetchData(dataId: string, options?: RequestOptions): Promise<DataItem>;
  /** `POST /public/batch`, split into requests of 100 ids and merged in request order. */
  fetchBatch(dataIds: readonly string[], options?: FetchBatchOptions): Promise<BatchResult>;
  /** `GET /public/collections/{slug}/data`: one page of a collection. */
  fetchCollection(slug: string, options?: FetchCollectionOptions): Promise<CollectionPage>;
  /**
   * `GET /public/collections/{slug}/changes` as an async iterator: every item change of the
   * collection after `since`, in order, each once; it keeps polling once caught up unless
   * `follow: false`. Start from a page's `position` to keep a local copy current.
   */
  changes(slug: string, options?: ChangesOptions): AsyncGenerator<ItemChange, void, undefined>;
  /**
   * Calls `listener` with the item's current value now (when known) and after every change:
   * `{dataId, data}`, or `null` when it does not exist or was deleted. Needs `reactive: true`.
   */
  watchData(dataId: string, listener: (item: WatchedItem) => void): Unsubscribe;
  /** Calls `listener` with page 1 of the collection (default sort and limit) now (when known) and after every change. Needs `reactive: true`. */
  watchCollection(slug: string, listener: (page: CollectionPage) => void): Unsubscribe;
  /** The local copy of a watched item: undefined while unknown. */
  currentData(dataId: string): WatchedItem | undefined;
  /** The local copy of a watched collection's first page: undefined while unknown. */
  currentCollection(slug: string): CollectionPage | undefined;
  /**
   * The position of the live stream's last event with an id: the local copy of everything watched
   * is complete up to it. The stream resumes from it by itself after drops and cycles; undefined
   * before the first `ready`.
   */
  streamPosition(): number | undefined;
  /** Closes the stream and drops every watcher. */
  close(): void;
}

/** The client's one live subscription, feeding its local copy through `sink`. */
function openLiveSubscription(
  options: ClientOptions,
  parts: { retry: RetryPolicy; clock: Clock; reads: ReturnType<typeof createReadMethods>; sink: ReturnType<typeof localCopySink> },
): LiveSubscription {
  return createLiveSubscription({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    eventSource: () => resolveEventSource(options.EventSource),
    retry: parts.retry,
    clock: parts.clock,
    tuning: { ...defaultStreamTuning, ...options.stream },
    confirmItems: (ids) => parts.reads.fetchBatch(ids),
    ...parts.sink,
    onConnected: (event) => options.onStreamConnected?.(event),
    onError: (error) => options.onStreamError?.(error),
  });
}

/** Most collections and dataIds one `/subscribe` stream may watch. */
export const subscriptionLimits = Object.freeze({ collections: 25, dataIds: 100 });

/**
 * Creates a client for the public read API (`fetchData`, `fetchBatch`, `fetchCollection`) with
 * automatic retries, and with `reactive: true` a live local copy kept current over one `/subscribe` stream.
 */
export function createClient(options: ClientOptions): PubstreamClient {
  if (!options.baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
  const retry: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
  const clock: Clock = { ...systemClock, ...options.clock };
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const reads = createReadMethods({ fetch: fetchFn, baseUrl: options.baseUrl, apiKey: options.apiKey, retry, clock, onRetry: options.onRetry });

  const local = createLocalCopy();
  let live: LiveSubscription | undefined;
  const resubscribe = () => subscription().watch({ collections: collections.keys(), dataIds: items.keys() });
  const items = createWatcherRegistry<WatchedItem>({
    limit: subscriptionLimits.dataIds,
    what: 'dataIds',
    current: (dataId) => local.item(dataId),
    forget: (dataId) => local.forgetItem(dataId),
    onKeysChanged: resubscribe,
  });
  const collections = createWatcherRegistry<CollectionPage>({
    limit: subscriptionLimits.collections,
    what: 'collections',
    current: (slug) => local.collection(slug),
    forget: (slug) => local.forgetCollection(slug),
    onKeysChanged: resubscribe,
  });
  const subscription = (): LiveSubscription => {
    if (!options.reactive) throw new TypeError('watchData/watchCollection need createClient({ reactive: true })');
    live ??= openLiveSubscription(options, { retry, clock, reads, sink: localCopySink(local, items, collections) });
    return live;
  };

  return {
    ...reads,
    watchData(dataId, listener) {
      subscription();
      return items.add(dataId, listener);
    },
    watchCollection(slug, listener) {
      subscription();
      return collections.add(slug, listener);
    },
    currentData: (dataId) => local.item(dataId),
    currentCollection: (slug) => local.collection(slug),
    streamPosition: () => live?.position(),
    close() {
      live?.close();
      live = undefined;
      items.clear();
      collections.clear();
    },
  };
}
