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
  /** The stream was opened with `from` (a resume): no snapshot comes, unless `reset` announces one. */
  resuming: boolean;
  /** An event carried an id: the client has everything up to this position. */
  onPosition: (position: number) => void;
  /** `connected` arrived: the stream works. */
  onLive: () => void;
  /** The stream outlived its announced lifetime without `reconnect`: re-open it. */
  onStale: () => void;
  onReconnect: (payload: ReconnectEvent | undefined) => void;
  onFailure: (event: StreamEventLike) => void;
}

/**
 * Listens to one `/subscribe` stream: feeds snapshot and deltas to the sink, tracks the position
 * of the last event with an id, takes the watched items a snapshot did not mention as missing
 * (at `ready`, or after asking the read API when the server sends no `ready`), watches for a
 * silently dead connection, and hands `reconnect` and `error` to its owner.
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

  const track = (event: StreamEventLike) => {
    const id = event.lastEventId;
    if (typeof id === 'string' && /^[0-9]{1,15}$/.test(id)) deps.onPosition(Number(id));
  };

  on('connected', (event) => {
    const payload = parseFrame<ConnectedEvent>(event);
    deps.onLive();
    if (!deps.resuming) snapshot.begin();
    deps.timers.cancel(staleTimer);
    const staleAfter = staleStreamAfterMs(payload?.ttlMs);
    if (staleAfter !== undefined) {
      staleTimer = deps.timers.later(staleAfter, () => {
        if (deps.isCurrent()) deps.onStale();
      });
    }
    if (payload) deps.sink.onConnected(payload);
  });
  on('update', (event) => {
    applyUpdate(event, snapshot, deps.sink);
    track(event);
  });
  on('delete', (event) => {
    applyDelete(event, snapshot, deps.sink);
    track(event);
  });
  // The position was too old for the server's history: a full snapshot follows.
  on('reset', () => snapshot.begin());
  on('ready', (event) => {
    for (const dataId of snapshot.complete()) deps.sink.onItem(dataId, null);
    track(event);
  });
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
