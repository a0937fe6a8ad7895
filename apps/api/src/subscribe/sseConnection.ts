import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { closeAfterResponse, queueClosingFrames } from './closingSequence.js';
import { DeltaBound } from './deltaBound.js';
import { FrameBytes } from './frameBytes.js';
import type { FrameCount } from './connectionOutput.js';
import type { FrameFlusher } from './frameFlusher.js';
import { FrameQueue } from './frameQueue.js';
import { SocketWriter } from './socketWriter.js';
import { reconnectFrame, type ReconnectReason } from './sseFrames.js';

export { SLICE_BYTES } from './socketWriter.js';

export interface SseConnectionOptions {
  /**
   * Most bytes of deltas a connection may hold unsent (Node's socket buffer plus the deltas queued
   * behind it). A client that lets more pile up is cut with `reconnect {reason: "slow_consumer"}`.
   * The snapshot is not counted (it is written with back-pressure), nor is one delta bigger than
   * the bound (a large collection page), which is sent in slices like the snapshot.
   */
  readonly maxBufferedBytes: number;
  /** How long an ended stream may take to flush before its socket is destroyed. */
  readonly closeGraceMs: number;
  /** Paces the socket writes: the hub's, shared by all its connections (`hub.output`). */
  readonly flusher: FrameFlusher;
  /** The frame bytes shared with the other connections of the hub (`hub.output`); else its own. */
  readonly bytes?: FrameBytes;
  /** Counts the frames this connection accepts (the hub's `output.sent`). */
  readonly sent?: FrameCount;
  /** The `retryAfterMs` of a stream this connection cuts itself (slow_consumer). */
  readonly retryAfterMs?: (reason: ReconnectReason) => number | undefined;
}

export interface SseConnection {
  /** Queues a delta, judged by the bound; a no-op once the stream has ended. */
  write(frame: string): void;
  /**
   * Frames written by `apply` are a snapshot: sent in order with back-pressure (a slice at a time,
   * each after the socket took the last) and never counted against the slow-consumer bound.
   */
  snapshot(apply: () => void): void;
  /**
   * Ends the stream, sending `reconnect {reason}` (with `retryAfterMs` and `retry:` when given)
   * first when a reason is given. Idempotent.
   */
  end(reason: ReconnectReason | null, retryAfterMs?: number): void;
  /** Bytes not yet handed to the kernel (also while an ended stream flushes), snapshot included. */
  readonly bufferedBytes: number;
  /** What the bound judges: the socket's unsent bytes plus the deltas queued behind them. */
  readonly boundedBytes: number;
  /** The most bytes the bound ever judged on this connection. */
  readonly peakBufferedBytes: number;
  readonly ended: boolean;
  /** Set when the stream ended: the reason the server gave, or `client_closed`. */
  readonly endReason: ReconnectReason | 'client_closed' | null;
  /** Called once when the stream is over, however it ended. */
  onEnd(listener: (reason: ReconnectReason | 'client_closed') => void): void;
}

/**
 * Writes SSE frames to the response socket with a bounded queue (docs/subscriptions.md,
 * "Bounded buffers"). Frames are queued and written together by the flusher's next pass (one
 * socket write for all of them, see socketWriter.ts); after back-pressure they wait until `drain`.
 * Deltas are judged by the bound (deltaBound.ts): when one would take the connection over it, the
 * queue is dropped, `reconnect {reason: "slow_consumer", retryAfterMs}` is written and the stream is
 * ended (closingSequence.ts); if it cannot flush within the grace period the socket is destroyed.
 */
export const createSseConnection = (res: ServerResponse, options: SseConnectionOptions): SseConnection => new BoundedSseConnection(res, options);

type EndReason = ReconnectReason | 'client_closed';

const noop = (): void => {};

class BoundedSseConnection implements SseConnection {
  private readonly queue = new FrameQueue();
  private readonly bytes: FrameBytes;
  private readonly socket: Socket | null;
  private readonly writer: SocketWriter;
  private readonly bound: DeltaBound;
  private inSnapshot = false;
  private flushScheduled = false;
  private isEnded = false;
  private reason: EndReason | null = null;
  private graceTimer: NodeJS.Timeout | null = null;
  private readonly listeners: ((reason: EndReason) => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseConnectionOptions,
  ) {
    this.bytes = options.bytes ?? new FrameBytes();
    res.flushHeaders();
    this.socket = res.socket;
    this.writer = new SocketWriter(res, this.bytes, () => {
      if (!this.isEnded) this.writeQueue();
    });
    this.bound = new DeltaBound(options.maxBufferedBytes);
    res.on('close', () => this.closed());
  }

  write(frame: string): void {
    if (this.isEnded) return;
    const size = this.bytes.byteLength(frame);
    const kind = this.inSnapshot ? 'snapshot' : this.bound.judge(size, this.queue, this.writer);
    if (kind === 'cut') return this.end('slow_consumer', this.options.retryAfterMs?.('slow_consumer'));
    this.queue.push(frame, size, kind);
    if (this.options.sent) this.options.sent.frames++;
    this.notePeak();
    if (!this.writer.waitingForDrain && !this.flushScheduled) {
      this.flushScheduled = true;
      this.options.flusher.schedule(this.flush);
    }
  }

  snapshot(apply: () => void): void {
    this.inSnapshot = true;
    try {
      apply();
    } finally {
      this.inSnapshot = false;
    }
  }

  end(reason: ReconnectReason | null, retryAfterMs?: number): void {
    if (this.isEnded) return;
    this.isEnded = true;
    const lastFrame = reason === null ? null : () => reconnectFrame(reason, retryAfterMs);
    queueClosingFrames(this.queue, this.writer.waitingForDrain, lastFrame, (frame) => this.bytes.byteLength(frame));
    // The closing write does not count toward the peak: the last frame may exceed the bound.
    this.writer.writeQueue(this.queue, noop);
    this.queue.clear();
    if (reason !== null) this.reason = reason;
    if (!this.res.destroyed && !this.res.writableEnded) this.res.end();
    this.graceTimer = closeAfterResponse(this.res, this.socket, this.options.closeGraceMs);
    this.finish(reason ?? 'client_closed');
  }

  get bufferedBytes(): number {
    return this.res.destroyed ? 0 : this.res.writableLength + this.queue.bytes;
  }

  get boundedBytes(): number {
    return this.res.destroyed ? 0 : this.res.writableLength + this.queue.countedBytes;
  }

  get peakBufferedBytes(): number {
    return this.bound.peak;
  }

  get ended(): boolean {
    return this.isEnded;
  }

  get endReason(): EndReason | null {
    return this.reason;
  }

  onEnd(listener: (reason: EndReason) => void): void {
    if (this.reason !== null && this.isEnded) listener(this.reason);
    else this.listeners.push(listener);
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    if (!this.isEnded && !this.writer.waitingForDrain) this.writeQueue();
  };

  private writeQueue(): void {
    this.writer.writeQueue(this.queue, this.notePeak);
  }

  private readonly notePeak = (): void => this.bound.note(this.writer.unsentBytes, this.queue);

  /** The response closed (the client went away, or the stream's end is done). */
  private closed(): void {
    if (this.socket === null && this.graceTimer) clearTimeout(this.graceTimer);
    if (this.isEnded) return;
    this.isEnded = true;
    this.queue.clear();
    this.finish('client_closed');
  }

  private finish(reason: EndReason): void {
    this.reason ??= reason;
    const callbacks = this.listeners.splice(0);
    for (const listener of callbacks) listener(this.reason);
  }
}
