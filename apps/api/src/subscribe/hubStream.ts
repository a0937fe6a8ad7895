import type { SseConnection } from './sseConnection.js';
import type { ReconnectReason } from './sseFrames.js';
import { StreamSubscription, type SubscriptionStart } from './streamSubscription.js';

export interface OpenStreamParams {
  readonly keyId: string;
  readonly keyHash: string;
  readonly dataIds: readonly string[];
  readonly slugs: readonly string[];
}

/** One stream's handle in the hub: registered (deltas buffered) from `open` on. */
export interface HubStream {
  /**
   * Reads the start: a snapshot, or with `from` a resume's catch-up (a snapshot after `reset` when
   * `from` is older than the history). Every delta since `open` is buffered meanwhile.
   */
  readStart(from: number | null): Promise<SubscriptionStart>;
  /** Sends the start, `ready` and the newer buffered deltas on the connection, then streams live. */
  attach(connection: SseConnection, start: SubscriptionStart): void;
  /** Removes a stream that will not start (an error answered instead). */
  cancel(): void;
  /** Set when the hub ended the stream before it was attached (key deleted, shutdown, …). */
  readonly endedBeforeStart: ReconnectReason | null;
}

/**
 * One stream as the hub holds it: its subscription (the hand-off and version filter of
 * streamSubscription.ts), its connection once attached, and how it ends, whether before or after
 * it started (docs/subscriptions.md, "the hand-off").
 */
export class StreamEntry {
  readonly sub: StreamSubscription;
  connection: SseConnection | null = null;
  /** Page reads with a seq above this were issued after the stream (re)started buffering. */
  bufferedSince: number;
  endedBeforeStart: ReconnectReason | null = null;
  removed = false;

  constructor(
    private readonly params: OpenStreamParams,
    bufferedSince: number,
  ) {
    this.sub = new StreamSubscription(params.dataIds, params.slugs);
    this.bufferedSince = bufferedSince;
  }

  get keyId(): string {
    return this.params.keyId;
  }

  get keyHash(): string {
    return this.params.keyHash;
  }

  get dataIds(): readonly string[] {
    return this.sub.dataIds;
  }

  get slugs(): readonly string[] {
    return this.sub.slugs;
  }

  /**
   * Ends the stream with `reconnect {reason}`; before it is attached, it is marked so that the route
   * answers an error instead of starting it. Nothing once removed.
   */
  end(reason: ReconnectReason, retryAfterMs: number | undefined): void {
    if (this.removed) return;
    if (this.connection) {
      this.connection.end(reason, retryAfterMs);
    } else if (this.endedBeforeStart === null) {
      this.endedBeforeStart = reason;
      this.sub.close();
    }
  }

  /**
   * Starts the stream on its connection: the snapshot, then the buffered deltas newer than it.
   * `onEnd` runs once when the connection is over. A stream the hub ended meanwhile ends at once.
   */
  attach(connection: SseConnection, start: SubscriptionStart, onEnd: (reason: ReconnectReason | 'client_closed') => void): void {
    if (this.removed) {
      connection.end(this.endedBeforeStart ?? 'shutdown');
      return;
    }
    this.connection = connection;
    connection.onEnd(onEnd);
    if (this.endedBeforeStart !== null) {
      connection.end(this.endedBeforeStart);
      return;
    }
    this.applyStart(connection, start);
  }

  /** Sends a start on the connection (with back-pressure, outside the slow-consumer bound), then goes live. */
  applyStart(connection: SseConnection, start: SubscriptionStart): void {
    connection.snapshot(() => this.sub.applyStart(start, connection));
  }

  /**
   * Buffers deltas again for a catch-up (after a change-stream gap), marking page reads from `seq`
   * on as fresh; returns the connection to catch up, or null for a stream not (or no longer) attached.
   */
  beginCatchUp(seq: number): SseConnection | null {
    const connection = this.connection;
    if (!connection || this.removed) return null;
    this.sub.beginCatchUp();
    this.bufferedSince = seq;
    return connection;
  }

  /** Marks the stream removed and drops its buffers; false when it already was. */
  markRemoved(): boolean {
    if (this.removed) return false;
    this.removed = true;
    this.sub.close();
    return true;
  }

  /** Writes a heartbeat comment once the stream is live. */
  heartbeat(frame: string): void {
    if (this.connection && this.sub.state === 'live') this.connection.write(frame);
  }
}
