import { DEFAULT_PLAN, PLANS, ServiceUnavailableError } from '@pubstream/domain';
import type { ChangeMessage, ChangeStream, ChangeSubscription } from '@pubstream/change-stream';
import type { ItemRecord, KeyStore, ReadModel } from '@pubstream/read-model';
import { collectionPagePayload, STREAM_PAGE_QUERY } from './collectionPage.js';
import { createReconnectHints, type ReconnectHints } from './reconnectHints.js';
import type { SseConnection } from './sseConnection.js';
import { HEARTBEAT_FRAME, itemDeleteFrame, itemUpdateFrame, type ReconnectReason } from './sseFrames.js';
import { StreamSubscription, type PageDelta, type SubscriptionSnapshot } from './streamSubscription.js';
import { watchUnsentBudget } from './unsentBudget.js';

export interface HubLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface FanoutHubOptions {
  readonly readModel: Pick<ReadModel, 'getItems' | 'getCollectionPage'> & Pick<KeyStore, 'getPlan'>;
  readonly changeStream: Pick<ChangeStream, 'subscribe'>;
  /** Collection pages are recomputed at most once per collection per window. Default 50 ms. */
  readonly coalesceMs?: number;
  /** Interval of the `: ping` comment on every stream. Default 15 s. */
  readonly heartbeatMs?: number;
  /**
   * Most bytes of deltas a connection may hold while its snapshot is read (a few milliseconds).
   * They are the frames every subscriber shares, so this only guards against a read that never
   * ends. Default 16 MiB.
   */
  readonly maxBufferedBytes?: number;
  /** How long `drain` waits for connecting streams to settle. Default 5 s. */
  readonly drainTimeoutMs?: number;
  /** Reconnect hints: `retryAfterMs` of cut streams and the spread of a drain. Default: no spread. */
  readonly hints?: ReconnectHints;
  /**
   * Unsent bytes all streams of the process may hold together (socket buffers plus queued deltas);
   * over it, the streams holding the most are cut as slow consumers. Default 64 MiB.
   */
  readonly unsentBudgetBytes?: number;
  /** How often the budget is checked. Default 1 s. */
  readonly budgetCheckMs?: number;
  readonly logger?: HubLogger;
}

export interface OpenStreamParams {
  readonly keyId: string;
  readonly keyHash: string;
  readonly dataIds: readonly string[];
  readonly slugs: readonly string[];
}

export interface StreamSnapshot extends SubscriptionSnapshot {
  /** Subscribed collections that do not exist (the route answers 404 before the stream starts). */
  readonly missingSlugs: readonly string[];
}

/** One stream's handle in the hub: registered (deltas buffered) from `open` on. */
export interface HubStream {
  /** Reads items and collection pages; every delta since `open` is buffered meanwhile. */
  readSnapshot(): Promise<StreamSnapshot>;
  /** Sends the snapshot and the newer buffered deltas on the connection, then streams live. */
  attach(connection: SseConnection, snapshot: StreamSnapshot): void;
  /** Removes a stream that will not start (an error answered instead). */
  cancel(): void;
  /** Set when the hub ended the stream before it was attached (key deleted, shutdown, …). */
  readonly endedBeforeStart: ReconnectReason | null;
}

export interface HubStats {
  /** Streams attached to a connection. */
  readonly streams: number;
  /** Streams registered but still reading their snapshot. */
  readonly connecting: number;
  /** Bytes held unsent across all connections now. */
  readonly bufferedBytes: number;
  /** The most bytes any one connection held unsent so far. */
  readonly peakBufferedBytesPerStream: number;
  /** Streams ended by the server, per reason. */
  readonly ended: Readonly<Record<string, number>>;
  /** Collection page reads done (snapshots and recomputes; shared reads counted once). */
  readonly pageReads: number;
  readonly changeMessages: number;
}

export interface FanoutHub {
  /** Subscribes to the change stream (once per hub; later calls return the same promise). */
  start(): Promise<void>;
  /** Registers a stream (the route has admitted it under the caps). Throws 503 while draining. */
  open(params: OpenStreamParams): HubStream;
  /**
   * Ends every stream with `reconnect {reason}` and refuses new ones; for a graceful stop. Every
   * stream ends at once, each with its own `retryAfterMs` (and `retry:`) spread over the shutdown
   * window, so the node can exit while its clients come back spread out.
   */
  drain(reason?: ReconnectReason): Promise<void>;
  /** Drains, then closes the change-stream subscription and timers. */
  close(): Promise<void>;
  /** Streams currently open with this key. */
  streamsForKey(keyId: string): number;
  stats(): HubStats;
}

interface Entry {
  readonly keyId: string;
  readonly keyHash: string;
  readonly sub: StreamSubscription;
  connection: SseConnection | null;
  /** Page reads with a seq above this were issued after the stream (re)started buffering. */
  bufferedSince: number;
  endedBeforeStart: ReconnectReason | null;
  removed: boolean;
}

interface PageRead {
  readonly seq: number;
  readonly promise: Promise<PageDelta & { missing: boolean }>;
}

interface CollectionState {
  /** Recompute needed with a read issued after this seq. */
  dirtyAfter: number | null;
  timer: NodeJS.Timeout | null;
  running: boolean;
  inflight: PageRead | null;
  /** The last page read, so that a read finding the same page reuses its strings (see readPage). */
  last: { json: string; frame: string } | null;
}

/** A page read that failed (read model down) is retried this much later. */
const RETRY_AFTER_FAILURE_MS = 1_000;

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V): void => {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
};

/**
 * The process's fanout hub (DESIGN.md §1, §6): one change-stream subscription, an index from
 * dataId and collection slug to the local streams, each item message serialized once for all
 * its subscribers, collection page 1 recomputed once per collection per coalescing window and
 * shared by all its subscribers, stale and duplicate messages dropped by version, and a re-sync
 * of every stream from the read models when the change stream reports a gap.
 */
export const createFanoutHub = (options: FanoutHubOptions): FanoutHub => {
  const { readModel, changeStream, logger } = options;
  const coalesceMs = options.coalesceMs ?? 50;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 16 * 1024 * 1024;
  const drainTimeoutMs = options.drainTimeoutMs ?? 5_000;
  const hints = options.hints ?? createReconnectHints({ shutdownWindowMs: 0 });
  let stopBudget: (() => void) | null = null;

  const entries = new Set<Entry>();
  const byDataId = new Map<string, Set<Entry>>();
  const bySlug = new Map<string, Set<Entry>>();
  const byKey = new Map<string, Set<Entry>>();
  /** Highest version seen per subscribed dataId: older or equal messages are dropped. */
  const itemVersions = new Map<string, number>();
  /** The latest update frame per subscribed dataId, reused by snapshots of the same version. */
  const itemFrames = new Map<string, { version: number; frame: string }>();
  const collections = new Map<string, CollectionState>();
  const endedCounts: Record<string, number> = {};
  let seq = 0;
  let pageReads = 0;
  let changeMessages = 0;
  let peakBufferedBytes = 0;
  let draining = false;
  let started: Promise<void> | null = null;
  let subscription: ChangeSubscription | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let drainWaiters: (() => void)[] = [];

  const countEnd = (reason: string): void => {
    endedCounts[reason] = (endedCounts[reason] ?? 0) + 1;
  };

  const collectionState = (slug: string): CollectionState => {
    let state = collections.get(slug);
    if (!state) collections.set(slug, (state = { dirtyAfter: null, timer: null, running: false, inflight: null, last: null }));
    return state;
  };

  /** Page 1 of a collection, from a read issued after `notBefore` (an in-flight one is shared). */
  const readPage = (slug: string, notBefore: number): PageRead['promise'] => {
    const state = collectionState(slug);
    if (state.inflight && state.inflight.seq > notBefore) return state.inflight.promise;
    const readSeq = ++seq;
    pageReads++;
    const promise = readModel.getCollectionPage(slug, STREAM_PAGE_QUERY).then((result) => {
      const json = JSON.stringify({ collectionSlug: slug, data: collectionPagePayload(result), action: 'update' });
      // Streams keep the page they sent (and a slow one, the frame it has yet to send): a page read
      // again unchanged shares the strings of the last read, so that a thousand snapshots of a big
      // page taken at different moments hold it once, not a thousand times.
      if (state.last?.json !== json) state.last = { json, frame: `event: update\ndata: ${json}\n\n` };
      return { slug, seq: readSeq, json: state.last.json, frame: state.last.frame, missing: result === null };
    });
    const read = { seq: readSeq, promise };
    state.inflight = read;
    const clear = (): void => {
      if (state.inflight === read) state.inflight = null;
    };
    promise.then(clear, clear);
    return promise;
  };

  const recompute = async (slug: string): Promise<void> => {
    const state = collections.get(slug);
    if (!state || state.dirtyAfter === null) return;
    state.timer = null;
    state.running = true;
    const after = state.dirtyAfter;
    state.dirtyAfter = null;
    let failed = false;
    try {
      const page = await readPage(slug, after);
      for (const entry of bySlug.get(slug) ?? []) entry.sub.onPage(page);
    } catch (error) {
      logger?.warn({ err: error, slug }, 'collection page recompute failed; retrying');
      failed = true;
      state.dirtyAfter ??= after;
    } finally {
      state.running = false;
    }
    if (state.dirtyAfter !== null && collections.get(slug) === state) schedule(slug, state, failed ? RETRY_AFTER_FAILURE_MS : coalesceMs);
  };

  const schedule = (slug: string, state: CollectionState, delayMs: number): void => {
    if (state.timer || state.running) return;
    state.timer = setTimeout(() => void recompute(slug), delayMs);
    state.timer.unref();
  };

  const markCollectionDirty = (slug: string): void => {
    if (!bySlug.has(slug)) return;
    const state = collectionState(slug);
    // The newest mark wins: a read issued after it covers this change and every earlier one (a
    // page read already in flight was issued before this change was durable, so it cannot).
    state.dirtyAfter = seq;
    schedule(slug, state, coalesceMs);
  };

  const endEntry = (entry: Entry, reason: ReconnectReason, retryAfterMs = hints.retryAfterMs(reason)): void => {
    if (entry.removed) return;
    if (entry.connection) {
      entry.connection.end(reason, retryAfterMs);
    } else if (entry.endedBeforeStart === null) {
      entry.endedBeforeStart = reason;
      entry.sub.close();
    }
  };

  const remove = (entry: Entry): void => {
    if (entry.removed) return;
    entry.removed = true;
    entry.sub.close();
    entries.delete(entry);
    if (entry.connection && entry.connection.peakBufferedBytes > peakBufferedBytes) peakBufferedBytes = entry.connection.peakBufferedBytes;
    for (const dataId of entry.sub.dataIds) {
      const set = byDataId.get(dataId);
      set?.delete(entry);
      if (set && set.size === 0) {
        byDataId.delete(dataId);
        itemVersions.delete(dataId);
        itemFrames.delete(dataId);
      }
    }
    for (const slug of entry.sub.slugs) {
      const set = bySlug.get(slug);
      set?.delete(entry);
      if (set && set.size === 0) {
        bySlug.delete(slug);
        const state = collections.get(slug);
        if (state?.timer) clearTimeout(state.timer);
        collections.delete(slug);
      }
    }
    const keyed = byKey.get(entry.keyId);
    keyed?.delete(entry);
    if (keyed && keyed.size === 0) byKey.delete(entry.keyId);
    if (entries.size === 0) for (const resolve of drainWaiters.splice(0)) resolve();
  };

  const itemFrameFor = (record: ItemRecord): string => {
    const cached = itemFrames.get(record.dataId);
    if (cached && cached.version === record.version) return cached.frame;
    const frame = itemUpdateFrame(record.dataId, record.data, record.version);
    if (byDataId.has(record.dataId) && (!cached || record.version > cached.version)) {
      itemFrames.set(record.dataId, { version: record.version, frame });
    }
    return frame;
  };

  const readSnapshot = async (entry: Entry): Promise<StreamSnapshot> => {
    const { dataIds, slugs } = entry.sub;
    const [records, pages] = await Promise.all([
      dataIds.length > 0 ? readModel.getItems(dataIds) : Promise.resolve([]),
      Promise.all(slugs.map((slug) => readPage(slug, entry.bufferedSince))),
    ]);
    const items = new Map<string, ItemRecord | null>();
    dataIds.forEach((dataId, index) => items.set(dataId, records[index] ?? null));
    return {
      items,
      pages,
      missingSlugs: pages.filter((page) => page.missing).map((page) => page.slug),
      itemFrame: itemFrameFor,
    };
  };

  const onItemMessage = (message: Extract<ChangeMessage, { kind: 'item' }>): void => {
    const subscribers = byDataId.get(message.dataId);
    if (subscribers) {
      const last = itemVersions.get(message.dataId);
      if (last !== undefined && message.version <= last) return;
      itemVersions.set(message.dataId, message.version);
      let frame: string;
      if (message.action === 'update') {
        frame = itemUpdateFrame(message.dataId, message.data, message.version);
        itemFrames.set(message.dataId, { version: message.version, frame });
      } else {
        frame = itemDeleteFrame(message.dataId, message.version);
        itemFrames.delete(message.dataId);
      }
      const delta = { dataId: message.dataId, action: message.action, version: message.version, frame };
      for (const entry of subscribers) {
        entry.sub.onItem(delta);
        if (entry.sub.bufferedBytes > maxBufferedBytes) endEntry(entry, 'slow_consumer');
      }
    }
    markCollectionDirty(message.collectionId);
  };

  const checkPlan = async (): Promise<void> => {
    const plan = (await readModel.getPlan())?.plan ?? DEFAULT_PLAN;
    if (PLANS[plan].reactive) return;
    logger?.info({ plan }, 'plan without reactive mode: ending every stream');
    for (const entry of [...entries]) endEntry(entry, 'plan_changed');
  };

  const resync = async (entry: Entry): Promise<void> => {
    const connection = entry.connection;
    if (!connection || entry.removed) return;
    entry.sub.beginResync();
    entry.bufferedSince = seq;
    try {
      const snapshot = await readSnapshot(entry);
      connection.snapshot(() => entry.sub.applySnapshot(snapshot, connection));
    } catch (error) {
      logger?.warn({ err: error }, 'stream re-sync failed; asking the client to reconnect');
      endEntry(entry, 'resync_failed');
    }
  };

  const onMessages = (messages: readonly ChangeMessage[]): void => {
    for (const message of messages) {
      changeMessages++;
      switch (message.kind) {
        case 'item':
          onItemMessage(message);
          break;
        case 'collection':
          markCollectionDirty(message.slug);
          break;
        case 'key':
          if (message.action === 'delete') {
            for (const entry of [...entries]) {
              if (entry.keyId === message.keyId || entry.keyHash === message.keyHash) endEntry(entry, 'key_revoked');
            }
          }
          break;
        case 'plan':
          checkPlan().catch((error: unknown) => logger?.warn({ err: error }, 'plan check failed'));
          break;
      }
    }
  };

  const onGap = (reason: string): void => {
    logger?.warn({ reason, streams: entries.size }, 'change stream gap: re-syncing every stream from the read models');
    for (const entry of [...entries]) void resync(entry);
  };

  /** The started streams with what each holds unsent, for the budget. */
  function* liveConnections(): Generator<{ entry: Entry; boundedBytes: number }> {
    for (const entry of entries) if (entry.connection && !entry.connection.ended) yield { entry, boundedBytes: entry.connection.boundedBytes };
  }

  const hub: FanoutHub = {
    start() {
      started ??= (async () => {
        subscription = await changeStream.subscribe({ onMessages, onGap });
        heartbeat = setInterval(() => {
          for (const entry of entries) if (entry.connection && entry.sub.state === 'live') entry.connection.write(HEARTBEAT_FRAME);
        }, heartbeatMs);
        heartbeat.unref();
        stopBudget = watchUnsentBudget({
          budgetBytes: options.unsentBudgetBytes ?? 64 * 1024 * 1024,
          intervalMs: options.budgetCheckMs ?? 1_000,
          holders: liveConnections,
          cut: (over) => {
            logger?.warn({ streams: over.length }, 'unsent bytes over the process budget: cutting the streams holding the most');
            for (const { entry } of over) endEntry(entry, 'slow_consumer');
          },
        });
      })();
      return started;
    },

    open(params) {
      if (draining) throw new ServiceUnavailableError('This server is shutting down; reconnect to reach another one');
      const entry: Entry = {
        keyId: params.keyId,
        keyHash: params.keyHash,
        sub: new StreamSubscription(params.dataIds, params.slugs),
        connection: null,
        bufferedSince: seq,
        endedBeforeStart: null,
        removed: false,
      };
      entries.add(entry);
      addTo(byKey, params.keyId, entry);
      for (const dataId of params.dataIds) addTo(byDataId, dataId, entry);
      for (const slug of params.slugs) addTo(bySlug, slug, entry);
      return {
        readSnapshot: () => readSnapshot(entry),
        attach(connection, snapshot) {
          if (entry.removed) {
            connection.end(entry.endedBeforeStart ?? 'shutdown');
            return;
          }
          entry.connection = connection;
          connection.onEnd((reason) => {
            countEnd(reason);
            remove(entry);
          });
          if (entry.endedBeforeStart !== null) {
            connection.end(entry.endedBeforeStart);
            return;
          }
          connection.snapshot(() => entry.sub.applySnapshot(snapshot, connection));
        },
        cancel: () => remove(entry),
        get endedBeforeStart() {
          return entry.endedBeforeStart;
        },
      };
    },

    async drain(reason = 'shutdown') {
      draining = true;
      const ending = [...entries];
      const delays = reason === 'shutdown' ? hints.spreadOverWindow(ending.length) : [];
      ending.forEach((entry, index) => endEntry(entry, reason, delays[index]));
      if (entries.size === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainTimeoutMs);
        timer.unref();
        drainWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      drainWaiters = [];
    },

    async close() {
      await hub.drain('shutdown');
      if (heartbeat) clearInterval(heartbeat);
      stopBudget?.();
      for (const state of collections.values()) if (state.timer) clearTimeout(state.timer);
      await subscription?.close();
      subscription = null;
    },

    streamsForKey: (keyId) => byKey.get(keyId)?.size ?? 0,

    stats() {
      let bufferedBytes = 0;
      let streams = 0;
      let peak = peakBufferedBytes;
      for (const entry of entries) {
        if (!entry.connection) continue;
        streams++;
        bufferedBytes += entry.connection.bufferedBytes;
        peak = Math.max(peak, entry.connection.peakBufferedBytes);
      }
      return {
        streams,
        connecting: entries.size - streams,
        bufferedBytes,
        peakBufferedBytesPerStream: peak,
        ended: { ...endedCounts },
        pageReads,
        changeMessages,
      };
    },
  };
  return hub;
};
