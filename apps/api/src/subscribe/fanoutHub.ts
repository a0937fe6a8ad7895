import { DEFAULT_PLAN, PLANS, ServiceUnavailableError } from '@pubstream/domain';
import type { ChangeMessage, ChangeStream, ChangeSubscription } from '@pubstream/change-stream';
import { createChangeDispatcher, type ChangeDispatcher } from './changeDispatcher.js';
import { CollectionPageReader, type PageRead } from './collectionPageReader.js';
import { createConnectionOutput, type ConnectionOutput } from './connectionOutput.js';
import { startHeartbeat } from './heartbeat.js';
import type { HubLogger } from './hubLogger.js';
import type { PlanReads, PositionReads, SnapshotReads } from './hubReads.js';
import { HubTally, type HubStats } from './hubStats.js';
import { StreamEntry, type HubStream, type OpenStreamParams } from './hubStream.js';
import { ItemFrames } from './itemFrames.js';
import { PageRecomputer } from './pageRecomputer.js';
import { createReconnectHints, type ReconnectHints } from './reconnectHints.js';
import { HEARTBEAT_FRAME, type ReconnectReason } from './sseFrames.js';
import { StreamDrain } from './streamDrain.js';
import { readStreamStart } from './streamStart.js';
import type { SubscriptionStart } from './streamSubscription.js';
import { SubscriptionIndex } from './subscriptionIndex.js';
import { watchUnsentBudget } from './unsentBudget.js';

export type { ConnectionOutput } from './connectionOutput.js';
export type { HubLogger } from './hubLogger.js';
export { positionReadsOf, type HistoryChange, type PlanReads, type PositionReads, type SnapshotReads } from './hubReads.js';
export type { HubStats } from './hubStats.js';
export type { HubStream, OpenStreamParams } from './hubStream.js';
export type { StreamStart } from './streamStart.js';
export type { SubscriptionStart } from './streamSubscription.js';

export interface FanoutHubOptions {
  /** Items and collection pages, for snapshots, re-syncs and page recomputes. */
  readonly reads: SnapshotReads;
  /** The applied position and the retained item changes: snapshots at a position, resumes, catch-ups. */
  readonly positions: PositionReads;
  /** The project's plan, read again when a plan change message arrives. */
  readonly plans: PlanReads;
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
  /** The flusher and shared frame bytes of the hub's connections. Default: the hub's own. */
  readonly output?: ConnectionOutput;
  readonly logger?: HubLogger;
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
  /** True from the first `drain` on: `open` refuses, the route answers with a shutdown hint instead. */
  readonly draining: boolean;
  /** Why deltas may not be arriving now (for /readyz); null when the change stream is healthy. */
  changeStreamProblem(): string | null;
  /** Streams currently open with this key. */
  streamsForKey(keyId: string): number;
  stats(): HubStats;
  /**
   * Calls `listener` with the seconds from a batch of change messages reaching the hub to the end
   * of the socket-write pass that sent its item deltas (batches that reached no stream are not
   * measured), for the fanout latency histogram (hubMetrics.ts).
   */
  observeFanout(listener: (seconds: number) => void): void;
  /** What the connections of this hub's streams share to write their sockets (see createSseConnection). */
  readonly output: ConnectionOutput;
}

/**
 * The process's fanout hub (docs/subscriptions.md, "Fanout"): one change-stream subscription, an
 * index from dataId and collection slug to the local streams, each item message framed once for
 * all its subscribers, collection page 1 recomputed once per collection per coalescing window and
 * shared by all its subscribers, stale and duplicate messages dropped by version and position, and
 * a catch-up of every stream from its last id through the history when the change stream reports a gap.
 */
export const createFanoutHub = (options: FanoutHubOptions): FanoutHub => new LocalFanoutHub(options);

/** The composition of the hub's parts; each part is its own unit, this only wires them. */
class LocalFanoutHub implements FanoutHub {
  readonly output: ConnectionOutput;
  private readonly hints: ReconnectHints;
  private readonly maxBufferedBytes: number;
  private readonly index = new SubscriptionIndex<StreamEntry>();
  private readonly items = new ItemFrames();
  private readonly tally = new HubTally();
  private readonly pages: CollectionPageReader;
  private readonly recomputer: PageRecomputer;
  private readonly changes: ChangeDispatcher;
  private readonly drainer: StreamDrain;
  private started: Promise<void> | null = null;
  private subscription: ChangeSubscription | null = null;
  private readonly stops: (() => void)[] = [];
  private readonly fanoutListeners: ((seconds: number) => void)[] = [];
  /** Item deltas handed to at least one stream: tells whether a batch of messages reached any. */
  private deltasFannedOut = 0;

  constructor(private readonly options: FanoutHubOptions) {
    this.output = options.output ?? createConnectionOutput();
    this.hints = options.hints ?? createReconnectHints({ shutdownWindowMs: 0 });
    this.maxBufferedBytes = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    this.pages = new CollectionPageReader(options.reads);
    this.recomputer = new PageRecomputer({
      pages: this.pages,
      followed: (slug) => this.index.followsCollection(slug),
      deliver: (page) => this.deliverPage(page),
      coalesceMs: options.coalesceMs ?? 50,
      logger: options.logger,
    });
    this.changes = createChangeDispatcher({
      item: (message) => this.fanOutItem(message),
      collection: (slug) => this.recomputer.markDirty(slug),
      keyDeleted: (keyId, keyHash) => this.endWhere((entry) => entry.keyId === keyId || entry.keyHash === keyHash, 'key_revoked'),
      planChanged: () => void this.checkPlan().catch((error: unknown) => options.logger?.warn({ err: error }, 'plan check failed')),
    });
    this.drainer = new StreamDrain({ timeoutMs: options.drainTimeoutMs ?? 5_000, hints: this.hints });
  }

  start(): Promise<void> {
    this.started ??= this.subscribe();
    return this.started;
  }

  open(params: OpenStreamParams): HubStream {
    if (this.drainer.draining) throw new ServiceUnavailableError('This server is shutting down; reconnect to reach another one');
    const entry = new StreamEntry(params, this.pages.seq);
    this.index.add(entry);
    return {
      readStart: (from) => this.readStart(entry, from),
      attach: (connection, start) =>
        entry.attach(connection, start, (reason) => {
          this.tally.countEnd(reason);
          this.remove(entry);
        }),
      cancel: () => this.remove(entry),
      get endedBeforeStart() {
        return entry.endedBeforeStart;
      },
    };
  }

  drain(reason: ReconnectReason = 'shutdown'): Promise<void> {
    return this.drainer.drain(reason, [...this.index.all()], (entry, retryAfterMs) => this.end(entry, reason, retryAfterMs), () => this.index.size);
  }

  async close(): Promise<void> {
    await this.drain('shutdown');
    for (const stop of this.stops.splice(0)) stop();
    this.recomputer.close();
    await this.subscription?.close();
    this.subscription = null;
  }

  get draining(): boolean {
    return this.drainer.draining;
  }

  changeStreamProblem(): string | null {
    return this.subscription?.problem?.() ?? null;
  }

  streamsForKey(keyId: string): number {
    return this.index.countForKey(keyId);
  }

  stats(): HubStats {
    const connections = Array.from(this.index.all(), (entry) => entry.connection);
    return this.tally.stats(connections, { pageReads: this.pages.reads, changeMessages: this.changes.received, framesSent: this.output.sent.frames });
  }

  observeFanout(listener: (seconds: number) => void): void {
    this.fanoutListeners.push(listener);
  }

  /** Dispatches a batch of messages and, when it reached a stream, times it to the end of the write pass. */
  private receive(messages: readonly ChangeMessage[]): void {
    const startedAt = performance.now();
    const before = this.deltasFannedOut;
    this.changes.onMessages(messages);
    if (this.deltasFannedOut === before || this.fanoutListeners.length === 0) return;
    this.output.flusher.afterNextPass(() => {
      const seconds = (performance.now() - startedAt) / 1000;
      for (const listener of this.fanoutListeners) listener(seconds);
    });
  }

  private async subscribe(): Promise<void> {
    this.subscription = await this.options.changeStream.subscribe({
      onMessages: (messages: readonly ChangeMessage[]) => this.receive(messages),
      onGap: (reason) => this.resyncAll(reason),
    });
    this.stops.push(
      startHeartbeat(this.options.heartbeatMs ?? 15_000, () => {
        for (const entry of this.index.all()) entry.heartbeat(HEARTBEAT_FRAME);
      }),
      watchUnsentBudget({
        budgetBytes: this.options.unsentBudgetBytes ?? 64 * 1024 * 1024,
        intervalMs: this.options.budgetCheckMs ?? 1_000,
        holders: () => this.liveConnections(),
        cut: (over) => {
          this.options.logger?.warn({ streams: over.length }, 'unsent bytes over the process budget: cutting the streams holding the most');
          for (const { entry } of over) this.end(entry, 'slow_consumer');
        },
      }),
    );
  }

  /** Ends a stream; its reason's own `retryAfterMs` unless one is given (a drain's spread wait). */
  private end(entry: StreamEntry, reason: ReconnectReason, retryAfterMs = this.hints.retryAfterMs(reason)): void {
    entry.end(reason, retryAfterMs);
  }

  private endWhere(matches: (entry: StreamEntry) => boolean, reason: ReconnectReason): void {
    for (const entry of [...this.index.all()]) if (matches(entry)) this.end(entry, reason);
  }

  private remove(entry: StreamEntry): void {
    if (!entry.markRemoved()) return;
    this.tally.keepPeak(entry.connection);
    const unfollowed = this.index.remove(entry);
    for (const dataId of unfollowed.dataIds) this.items.forget(dataId);
    for (const slug of unfollowed.slugs) {
      this.recomputer.forget(slug);
      this.pages.forget(slug);
    }
    if (this.index.size === 0) this.drainer.settled();
  }

  private async readStart(entry: StreamEntry, from: number | null): Promise<SubscriptionStart> {
    const start = await readStreamStart({ reads: this.options.reads, positions: this.options.positions, pages: this.pages }, entry, from, entry.bufferedSince);
    return { ...start, itemFrame: (item) => this.items.snapshotFrame(item, this.index.followsItem(item.dataId)) };
  }

  /** An item message: framed once, dropped if not news, handed to each subscriber; then its collection's page. */
  private fanOutItem(message: Extract<ChangeMessage, { kind: 'item' }>): void {
    const subscribers = this.index.followingItem(message.dataId);
    if (subscribers) {
      const delta = this.items.delta(message);
      if (delta === null) return;
      this.deltasFannedOut++;
      for (const entry of subscribers) {
        entry.sub.onItem(delta);
        if (entry.sub.bufferedBytes > this.maxBufferedBytes) this.end(entry, 'slow_consumer');
      }
    }
    this.recomputer.markDirty(message.collectionId);
  }

  private deliverPage(page: PageRead): void {
    for (const entry of this.index.followingCollection(page.slug) ?? []) entry.sub.onPage(page);
  }

  private async checkPlan(): Promise<void> {
    const plan = (await this.options.plans.getPlan())?.plan ?? DEFAULT_PLAN;
    if (PLANS[plan].reactive) return;
    this.options.logger?.info({ plan }, 'plan without reactive mode: ending every stream');
    this.endWhere(() => true, 'plan_changed');
  }

  /**
   * After a change-stream gap: every stream catches up from its last id through the history, as a
   * resume would (docs/subscriptions.md, "Positions"); one whose id has left the history is asked
   * to reconnect.
   */
  private resyncAll(reason: string): void {
    this.options.logger?.warn({ reason, streams: this.index.size }, 'change stream gap: catching every stream up through the history');
    for (const entry of [...this.index.all()]) void this.catchUp(entry);
  }

  private async catchUp(entry: StreamEntry): Promise<void> {
    const connection = entry.beginCatchUp(this.pages.seq);
    if (!connection) return;
    try {
      const start = await this.readStart(entry, entry.sub.lastId);
      if (start.kind === 'snapshot') throw new Error(`position ${entry.sub.lastId} left the history`);
      entry.applyStart(connection, start);
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'stream catch-up failed; asking the client to reconnect');
      this.end(entry, 'resync_failed');
    }
  }

  /** The started streams with what each holds unsent, for the budget. */
  private *liveConnections(): Generator<{ entry: StreamEntry; boundedBytes: number }> {
    for (const entry of this.index.all()) if (entry.connection && !entry.connection.ended) yield { entry, boundedBytes: entry.connection.boundedBytes };
  }
}
