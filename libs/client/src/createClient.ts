import { mergeBatchResults, splitIntoBatches } from './batching.js';
import { type Clock, systemClock } from './clock.js';
import { BadRequestError, type PubstreamError } from './errors.js';
import { type EventSourceConstructor, resolveEventSource } from './eventSourceResolver.js';
import { type ApiRequest, type FetchLike, sendApiRequest } from './httpTransport.js';
import { createLiveSubscription, defaultStreamTuning, type LiveSubscription, type StreamTuning } from './liveSubscription.js';
import { createLocalCopy, type WatchedItem } from './localCopy.js';
import { defaultRetryPolicy, type RetryPolicy } from './retryPolicy.js';
import { runWithRetry, type RetryListener } from './runWithRetry.js';
import type {
  BatchResult,
  CollectionPage,
  ConnectedEvent,
  DataItem,
  FetchBatchOptions,
  FetchCollectionOptions,
  RequestOptions,
} from './types.js';

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

/** Unsubscribes a watcher; calling it twice is harmless. */
export type Unsubscribe = () => void;

/** The Pubstream client. */
export interface PubstreamClient {
  /** `GET /public/data/{dataId}`: one item with every field. */
  fetchData(dataId: string, options?: RequestOptions): Promise<DataItem>;
  /** `POST /public/batch`, split into requests of 100 ids and merged in request order. */
  fetchBatch(dataIds: readonly string[], options?: FetchBatchOptions): Promise<BatchResult>;
  /** `GET /public/collections/{slug}/data`: one page of a collection. */
  fetchCollection(slug: string, options?: FetchCollectionOptions): Promise<CollectionPage>;
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
  /** Closes the stream and drops every watcher. */
  close(): void;
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

  const request = <T>(req: ApiRequest): Promise<T> =>
    runWithRetry(() => sendApiRequest<T>(fetchFn, options.baseUrl, options.apiKey, req, clock), retry, clock, req.signal, options.onRetry);

  const fetchData = (dataId: string, opts: RequestOptions = {}) =>
    request<DataItem>({ method: 'GET', path: `/public/data/${encodeURIComponent(dataId)}`, signal: opts.signal });

  const fetchBatch = async (dataIds: readonly string[], opts: FetchBatchOptions = {}): Promise<BatchResult> => {
    const chunks = splitIntoBatches(dataIds);
    const results: BatchResult[] = [];
    // One chunk at a time: parallel chunks would only spend the key's rate limit faster.
    for (const chunk of chunks) {
      const body: { dataIds: string[]; fields?: string[] } = { dataIds: chunk };
      if (opts.fields) body.fields = opts.fields;
      results.push(await request<BatchResult>({ method: 'POST', path: '/public/batch', body, signal: opts.signal }));
    }
    return mergeBatchResults(results);
  };

  const fetchCollection = (slug: string, opts: FetchCollectionOptions = {}) =>
    request<CollectionPage>({
      method: 'GET',
      path: `/public/collections/${encodeURIComponent(slug)}/data`,
      query: { page: opts.page, limit: opts.limit, sort: opts.sort, order: opts.order },
      signal: opts.signal,
    });

  const local = createLocalCopy();
  const itemListeners = new Map<string, Set<(item: WatchedItem) => void>>();
  const collectionListeners = new Map<string, Set<(page: CollectionPage) => void>>();
  let live: LiveSubscription | undefined;

  const notify = <V>(listeners: Set<(value: V) => void> | undefined, value: V) => {
    for (const listener of [...(listeners ?? [])]) {
      try {
        listener(value);
      } catch (error) {
        // A failing listener must not stop the others nor the stream.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  };

  const subscription = (): LiveSubscription => {
    if (!options.reactive) throw new TypeError('watchData/watchCollection need createClient({ reactive: true })');
    live ??= createLiveSubscription({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      eventSource: () => resolveEventSource(options.EventSource),
      retry,
      clock,
      tuning: { ...defaultStreamTuning, ...options.stream },
      confirmItems: (ids) => fetchBatch(ids),
      onItem: (dataId, data) => {
        if (!itemListeners.has(dataId)) return;
        const value = data === null ? null : { dataId, data };
        if (local.setItem(dataId, value)) notify(itemListeners.get(dataId), value);
      },
      onCollection: (slug, page) => {
        if (!collectionListeners.has(slug)) return;
        if (local.setCollection(slug, page)) notify(collectionListeners.get(slug), page);
      },
      onConnected: (event) => options.onStreamConnected?.(event),
      onError: (error) => options.onStreamError?.(error),
    });
    return live;
  };

  const resubscribe = () => subscription().watch({ collections: [...collectionListeners.keys()], dataIds: [...itemListeners.keys()] });

  function watch<V>(
    key: string,
    listeners: Map<string, Set<(value: V) => void>>,
    limit: number,
    what: string,
    current: () => V | undefined,
    forget: () => void,
    listener: (value: V) => void,
  ): Unsubscribe {
    subscription();
    let set = listeners.get(key);
    if (!set) {
      if (listeners.size >= limit) throw new BadRequestError(400, 'Bad Request', `At most ${limit} ${what} can be watched at once`);
      set = new Set();
      listeners.set(key, set);
      resubscribe();
    }
    set.add(listener);
    const known = current();
    if (known !== undefined) queueMicrotask(() => set.has(listener) && listener(known));
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(listener);
      if (set.size === 0 && listeners.get(key) === set) {
        listeners.delete(key);
        forget();
        resubscribe();
      }
    };
  }

  return {
    fetchData,
    fetchBatch,
    fetchCollection,
    watchData: (dataId, listener) =>
      watch(dataId, itemListeners, subscriptionLimits.dataIds, 'dataIds', () => local.item(dataId), () => local.forgetItem(dataId), listener),
    watchCollection: (slug, listener) =>
      watch(slug, collectionListeners, subscriptionLimits.collections, 'collections', () => local.collection(slug), () => local.forgetCollection(slug), listener),
    currentData: (dataId) => local.item(dataId),
    currentCollection: (slug) => local.collection(slug),
    close() {
      live?.close();
      live = undefined;
      itemListeners.clear();
      collectionListeners.clear();
    },
  };
}
