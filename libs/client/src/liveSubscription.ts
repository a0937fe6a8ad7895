import type { Clock } from './clock.js';
import { BadRequestError, ForbiddenError, NetworkError, NotFoundError, type PubstreamError, UnauthorizedError } from './errors.js';
import type { EventSourceConstructor, EventSourceLike, StreamEventLike } from './eventSourceResolver.js';
import { buildUrl } from './httpTransport.js';
import { fullJitterDelay, type RetryPolicy } from './retryPolicy.js';
import { CUT_REASONS, streamReconnectDelay } from './streamBackoff.js';
import type { BatchResult, CollectionPage, ConnectedEvent, ItemData, ReconnectEvent } from './types.js';

/** What the stream watches. */
export interface WatchedSet {
  collections: string[];
  dataIds: string[];
}

/** Tuning of the stream; the defaults suit browsers and servers alike. */
export interface StreamTuning {
  /** Wait after a change of the watched set before the stream is re-opened, to group changes. Default 25. */
  debounceMs: number;
  /** Quiet time after which the snapshot that follows `connected` is taken as complete. Default 250. */
  snapshotQuietMs: number;
  /** Upper bound of that wait when deltas keep arriving. Default 3000. */
  snapshotMaxMs: number;
  /** Longest wait before re-opening a stream the server cut again and again. Default 300 000 (5 min). */
  maxCutBackoffMs: number;
}

export const defaultStreamTuning: Readonly<StreamTuning> = Object.freeze({ debounceMs: 25, snapshotQuietMs: 250, snapshotMaxMs: 3000, maxCutBackoffMs: 300_000 });

/** Dependencies of {@link createLiveSubscription}. */
export interface LiveSubscriptionDeps {
  baseUrl: string;
  apiKey: string;
  eventSource: () => Promise<EventSourceConstructor>;
  retry: RetryPolicy;
  clock: Clock;
  tuning: StreamTuning;
  /** Asks the read API about ids the snapshot did not mention (deleted while disconnected, or never created). */
  confirmItems: (dataIds: string[]) => Promise<BatchResult>;
  onItem: (dataId: string, data: ItemData | null) => void;
  onCollection: (slug: string, page: CollectionPage) => void;
  onConnected: (event: ConnectedEvent) => void;
  onError: (error: PubstreamError) => void;
}

/** One `/subscribe` stream kept open for a changing watched set. */
export interface LiveSubscription {
  /** Sets what to watch; the stream is re-opened (debounced) when it differs from the open one. */
  watch(set: WatchedSet): void;
  /** Closes the stream and cancels every timer. */
  close(): void;
}

/**
 * Keeps ONE `/subscribe` stream open while anything is watched. Re-opens it on `reconnect` (at once
 * on a `cycle`, else after the server's `retryAfterMs`, backing off on repeated cuts), after
 * network loss (with exponential backoff and full jitter), when the watched set changes, and when a
 * stream outlives its announced `ttlMs` without a `reconnect` (a silently dead connection).
 */
export function createLiveSubscription(deps: LiveSubscriptionDeps): LiveSubscription {
  let desired: WatchedSet = { collections: [], dataIds: [] };
  let openKey = '';
  let source: EventSourceLike | undefined;
  let generation = 0;
  let failures = 0;
  // Server cuts in a row (slow_consumer, resync_failed), until a stream lives to its `cycle`.
  let cuts = 0;
  let closed = false;
  // The watched set the server refused (401/403/…): not retried until the set changes.
  let refusedKey: string | undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const cancel = (timer: ReturnType<typeof setTimeout> | undefined) => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.delete(timer);
  };

  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleOpen = (ms: number) => {
    cancel(reopenTimer);
    reopenTimer = later(ms, () => {
      reopenTimer = undefined;
      void open();
    });
  };

  const keyOf = (set: WatchedSet) => JSON.stringify([set.collections, set.dataIds]);

  const shut = () => {
    generation += 1;
    source?.close();
    source = undefined;
    openKey = '';
  };

  async function open(): Promise<void> {
    shut();
    if (closed || (desired.collections.length === 0 && desired.dataIds.length === 0)) return;
    const myGeneration = generation;
    const watched = desired;
    let Ctor: EventSourceConstructor;
    try {
      Ctor = await deps.eventSource();
    } catch (cause) {
      deps.onError(new NetworkError('No EventSource implementation is available; pass one as the EventSource option', { cause }));
      return;
    }
    if (myGeneration !== generation || closed) return;
    const query: Record<string, string> = { apiKey: deps.apiKey };
    if (watched.collections.length > 0) query.collections = watched.collections.join(',');
    if (watched.dataIds.length > 0) query.dataIds = watched.dataIds.join(',');
    const es = new Ctor(buildUrl(deps.baseUrl, '/subscribe', query));
    source = es;
    openKey = keyOf(watched);
    const current = () => myGeneration === generation;

    // Snapshot tracking: ids mentioned since `connected`; once the snapshot has gone quiet, ids it
    // did not mention are checked through the read API so deletions made while away are seen.
    const seen = new Set<string>();
    let snapshotOpen = false;
    let quietTimer: ReturnType<typeof setTimeout> | undefined;
    let maxTimer: ReturnType<typeof setTimeout> | undefined;
    let ttlTimer: ReturnType<typeof setTimeout> | undefined;
    const touchSnapshot = () => {
      if (!snapshotOpen) return;
      cancel(quietTimer);
      quietTimer = later(deps.tuning.snapshotQuietMs, settleSnapshot);
    };
    const settleSnapshot = () => {
      if (!snapshotOpen || !current()) return;
      snapshotOpen = false;
      cancel(quietTimer);
      cancel(maxTimer);
      const unseen = watched.dataIds.filter((id) => !seen.has(id));
      if (unseen.length === 0) return;
      deps.confirmItems(unseen).then(
        (result) => {
          if (!current()) return;
          for (const item of result.data) if (!seen.has(item.dataId)) deps.onItem(item.dataId, item.data);
          for (const id of result.notFound) if (!seen.has(id)) deps.onItem(id, null);
        },
        (error: PubstreamError) => deps.onError(error),
      );
    };

    const parse = <T>(event: StreamEventLike): T | undefined => {
      try {
        return JSON.parse(String(event.data)) as T;
      } catch {
        return undefined;
      }
    };

    es.addEventListener('connected', (event) => {
      if (!current()) return;
      const payload = parse<ConnectedEvent>(event);
      failures = 0;
      seen.clear();
      snapshotOpen = true;
      touchSnapshot();
      cancel(maxTimer);
      maxTimer = later(deps.tuning.snapshotMaxMs, settleSnapshot);
      cancel(ttlTimer);
      if (payload && payload.ttlMs > 0) {
        // The server jitters the lifetime by ±10 %; well past that without `reconnect`, the connection is dead.
        ttlTimer = later(payload.ttlMs * 1.25 + 5_000, () => {
          if (current()) void open();
        });
      }
      if (payload) deps.onConnected(payload);
    });
    es.addEventListener('update', (event) => {
      if (!current()) return;
      const payload = parse<{ dataId?: string; collectionSlug?: string; data: unknown }>(event);
      if (!payload) return;
      if (typeof payload.collectionSlug === 'string') {
        deps.onCollection(payload.collectionSlug, payload.data as CollectionPage);
      } else if (typeof payload.dataId === 'string') {
        seen.add(payload.dataId);
        deps.onItem(payload.dataId, (payload.data ?? {}) as ItemData);
      }
      touchSnapshot();
    });
    es.addEventListener('delete', (event) => {
      if (!current()) return;
      const payload = parse<{ dataId?: string }>(event);
      if (payload && typeof payload.dataId === 'string') {
        seen.add(payload.dataId);
        deps.onItem(payload.dataId, null);
      }
      touchSnapshot();
    });
    es.addEventListener('reconnect', (event) => {
      if (!current()) return;
      const payload = parse<ReconnectEvent>(event);
      cancel(ttlTimer);
      if (payload?.reason === 'key_revoked') {
        refusedKey = keyOf(watched);
        shut();
        deps.onError(new UnauthorizedError(401, 'Unauthorized', 'The API key was revoked'));
        return;
      }
      if (!payload || payload.reason === 'cycle') {
        // A cycle: reconnect at once, the new stream starts with a fresh snapshot.
        cuts = 0;
        void open();
        return;
      }
      // Wait as the server asks (a draining node spreads its clients over a window; a cut client
      // waits a while), longer after repeated cuts; the new stream starts with a fresh snapshot.
      if (CUT_REASONS.has(payload.reason)) cuts += 1;
      const hint = typeof payload.retryAfterMs === 'number' && Number.isFinite(payload.retryAfterMs) ? payload.retryAfterMs : 0;
      shut();
      scheduleOpen(streamReconnectDelay(hint, cuts, { baseDelayMs: deps.retry.baseDelayMs, maxMs: deps.tuning.maxCutBackoffMs }, deps.clock.random));
    });
    es.addEventListener('error', (event) => {
      if (!current()) return;
      cancel(ttlTimer);
      cancel(quietTimer);
      cancel(maxTimer);
      const fatal = fatalStreamError(event);
      shut();
      if (fatal) {
        // Retrying a refused subscription cannot help; wait until the watched set changes.
        refusedKey = keyOf(watched);
        deps.onError(fatal);
        return;
      }
      failures += 1;
      deps.onError(new NetworkError(`Stream interrupted${event.message ? `: ${event.message}` : ''}; reconnecting`));
      const delay = Math.max(deps.tuning.debounceMs, fullJitterDelay(failures, deps.retry, deps.clock.random));
      scheduleOpen(delay);
    });
  }

  return {
    watch(set) {
      if (closed) return;
      desired = { collections: [...set.collections].sort(), dataIds: [...set.dataIds].sort() };
      const key = keyOf(desired);
      if ((key === openKey && source) || key === refusedKey) return;
      refusedKey = undefined;
      scheduleOpen(deps.tuning.debounceMs);
    },
    close() {
      closed = true;
      shut();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Errors that a new attempt cannot fix. Only Node's `eventsource` reports the status; browsers do not. */
function fatalStreamError(event: StreamEventLike): PubstreamError | undefined {
  const message = event.message ?? 'Subscription refused';
  switch (event.code) {
    case 400:
      return new BadRequestError(400, 'Bad Request', message);
    case 401:
      return new UnauthorizedError(401, 'Unauthorized', message);
    case 403:
      return new ForbiddenError(403, 'Forbidden', message);
    case 404:
      return new NotFoundError(404, 'Not Found', message);
    default:
      return undefined;
  }
}
