import type { PubstreamError } from './errors.js';
import type { EventSourceLike, StreamEventLike } from './eventSourceResolver.js';
import { createSnapshotTracker, type SnapshotTracker } from './snapshotTracker.js';
import { parseFrame, readDeleteFrame, readUpdateFrame, staleStreamAfterMs } from './streamFrames.js';
import type { StreamTuning } from './streamTuning.js';
import type { Timer, TimerSet } from './timerSet.js';
import type { BatchResult, CollectionPage, ConnectedEvent, ItemData, ReconnectEvent } from './types.js';
import type { WatchedSet } from './watchedSet.js';

/** Where the stream's data goes: the client's local copy and its callbacks. */
export interface StreamSink {
  /** Asks the read API about ids the snapshot did not mention (deleted while disconnected, or never created). */
  confirmItems: (dataIds: string[]) => Promise<BatchResult>;
  onItem: (dataId: string, data: ItemData | null) => void;
  onCollection: (slug: string, page: CollectionPage) => void;
  onConnected: (event: ConnectedEvent) => void;
  onError: (error: PubstreamError) => void;
}

/** What one open stream needs, and how it tells its owner that it ended. */
export interface StreamListenerDeps {
  sink: StreamSink;
  watched: WatchedSet;
  timers: TimerSet;
  tuning: StreamTuning;
  /** False once this stream was replaced or closed: its events are then ignored. */
  isCurrent: () => boolean;
  /** `connected` arrived: the stream works. */
  onLive: () => void;
  /** The stream outlived its announced lifetime without `reconnect`: re-open it. */
  onStale: () => void;
  onReconnect: (payload: ReconnectEvent | undefined) => void;
  onFailure: (event: StreamEventLike) => void;
}

/**
 * Listens to one `/subscribe` stream: feeds snapshot and deltas to the sink, checks after the
 * snapshot for watched items it did not mention, watches for a silently dead connection, and
 * hands `reconnect` and `error` to its owner.
 */
export function listenToStream(es: EventSourceLike, deps: StreamListenerDeps): void {
  const snapshot = createSnapshotTracker({
    timers: deps.timers,
    quietMs: deps.tuning.snapshotQuietMs,
    maxMs: deps.tuning.snapshotMaxMs,
    watchedIds: deps.watched.dataIds,
    isCurrent: deps.isCurrent,
    onUnseen: (ids) => confirmUnseen(ids, snapshot, deps),
  });
  let staleTimer: Timer | undefined;
  const on = (type: string, handle: (event: StreamEventLike) => void) =>
    es.addEventListener(type, (event) => {
      if (deps.isCurrent()) handle(event);
    });

  on('connected', (event) => {
    const payload = parseFrame<ConnectedEvent>(event);
    deps.onLive();
    snapshot.begin();
    deps.timers.cancel(staleTimer);
    const staleAfter = staleStreamAfterMs(payload?.ttlMs);
    if (staleAfter !== undefined) {
      staleTimer = deps.timers.later(staleAfter, () => {
        if (deps.isCurrent()) deps.onStale();
      });
    }
    if (payload) deps.sink.onConnected(payload);
  });
  on('update', (event) => applyUpdate(event, snapshot, deps.sink));
  on('delete', (event) => applyDelete(event, snapshot, deps.sink));
  on('reconnect', (event) => {
    deps.timers.cancel(staleTimer);
    deps.onReconnect(parseFrame<ReconnectEvent>(event));
  });
  on('error', (event) => {
    deps.timers.cancel(staleTimer);
    snapshot.stop();
    deps.onFailure(event);
  });
}

function applyUpdate(event: StreamEventLike, snapshot: SnapshotTracker, sink: StreamSink): void {
  const frame = readUpdateFrame(event);
  if (!frame) return;
  if (frame.kind === 'collection') {
    sink.onCollection(frame.slug, frame.page);
  } else if (frame.kind === 'item') {
    snapshot.saw(frame.dataId);
    sink.onItem(frame.dataId, frame.data);
  }
  snapshot.touch();
}

function applyDelete(event: StreamEventLike, snapshot: SnapshotTracker, sink: StreamSink): void {
  const dataId = readDeleteFrame(event);
  if (dataId !== undefined) {
    snapshot.saw(dataId);
    sink.onItem(dataId, null);
  }
  snapshot.touch();
}

/** Asks the read API about watched ids the snapshot did not mention; a frame that came meanwhile wins. */
function confirmUnseen(ids: string[], snapshot: SnapshotTracker, deps: Pick<StreamListenerDeps, 'sink' | 'isCurrent'>): void {
  deps.sink.confirmItems(ids).then(
    (result) => {
      if (!deps.isCurrent()) return;
      for (const item of result.data) if (!snapshot.hasSeen(item.dataId)) deps.sink.onItem(item.dataId, item.data);
      for (const id of result.notFound) if (!snapshot.hasSeen(id)) deps.sink.onItem(id, null);
    },
    (error: PubstreamError) => deps.sink.onError(error),
  );
}
