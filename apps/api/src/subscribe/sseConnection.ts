import type { ServerResponse } from 'node:http';
import { reconnectFrame, type ReconnectReason } from './sseFrames.js';

export interface SseConnectionOptions {
  /**
   * Most bytes a connection may hold unsent (Node's socket buffer plus its own queue). A client
   * that lets more pile up is cut with `reconnect {reason: "slow_consumer"}`.
   */
  readonly maxBufferedBytes: number;
  /** How long an ended stream may take to flush before its socket is destroyed. */
  readonly closeGraceMs: number;
}

export interface SseConnection {
  /** Queues a frame; a no-op once the stream has ended. */
  write(frame: string): void;
  /** Ends the stream, sending `reconnect {reason}` first when a reason is given. Idempotent. */
  end(reason: ReconnectReason | null): void;
  /** Bytes not yet handed to the kernel (also while an ended stream flushes). */
  readonly bufferedBytes: number;
  /** The most bytes this connection ever held unsent: what the bound is checked against. */
  readonly peakBufferedBytes: number;
  readonly ended: boolean;
  /** Set when the stream ended: the reason the server gave, or `client_closed`. */
  readonly endReason: ReconnectReason | 'client_closed' | null;
  /** Called once when the stream is over, however it ended. */
  onEnd(listener: (reason: ReconnectReason | 'client_closed') => void): void;
}

/**
 * Writes SSE frames straight to the response socket with a bounded queue. While the socket
 * accepts (`write` returns true) frames go straight through; after back-pressure they wait in a
 * queue until `drain`. When socket buffer + queue would exceed the bound, the queue is dropped,
 * `reconnect {reason: "slow_consumer"}` is written and the stream is ended; if it cannot flush
 * within the grace period the socket is destroyed. So one stuck client costs at most about
 * `maxBufferedBytes` plus one frame.
 */
export const createSseConnection = (res: ServerResponse, options: SseConnectionOptions): SseConnection => {
  let queue: string[] = [];
  let queuedBytes = 0;
  let waitingForDrain = false;
  let ended = false;
  let endReason: ReconnectReason | 'client_closed' | null = null;
  let graceTimer: NodeJS.Timeout | null = null;
  let peak = 0;
  const notePeak = (): void => {
    const now = res.writableLength + queuedBytes;
    if (now > peak) peak = now;
  };
  const listeners: ((reason: ReconnectReason | 'client_closed') => void)[] = [];

  const finish = (reason: ReconnectReason | 'client_closed'): void => {
    if (endReason === null) endReason = reason;
    const callbacks = listeners.splice(0);
    for (const listener of callbacks) listener(endReason);
  };

  const flush = (): void => {
    waitingForDrain = false;
    while (queue.length > 0 && !ended) {
      const frame = queue.shift() as string;
      queuedBytes -= Buffer.byteLength(frame);
      if (!res.write(frame)) {
        waitingForDrain = true;
        res.once('drain', flush);
        return;
      }
    }
  };

  const end = (reason: ReconnectReason | null): void => {
    if (ended) return;
    ended = true;
    queue = [];
    queuedBytes = 0;
    if (reason !== null) endReason = reason;
    if (!res.destroyed && !res.writableEnded) {
      if (reason !== null) res.write(reconnectFrame(reason));
      res.end();
    }
    if (!res.writableFinished && !res.destroyed) {
      graceTimer = setTimeout(() => res.destroy(), options.closeGraceMs);
      graceTimer.unref();
    }
    finish(reason ?? 'client_closed');
  };

  res.on('close', () => {
    if (graceTimer) clearTimeout(graceTimer);
    if (!ended) {
      ended = true;
      queue = [];
      queuedBytes = 0;
      finish('client_closed');
    }
  });

  const write = (frame: string): void => {
    if (ended) return;
    if (!waitingForDrain) {
      // A frame bigger than the bound still goes out alone on an empty buffer (one can be huge).
      if (res.writableLength > 0 && res.writableLength + Buffer.byteLength(frame) > options.maxBufferedBytes) {
        end('slow_consumer');
        return;
      }
      if (!res.write(frame)) {
        waitingForDrain = true;
        res.once('drain', flush);
      }
      notePeak();
      return;
    }
    const size = Buffer.byteLength(frame);
    if (res.writableLength + queuedBytes + size > options.maxBufferedBytes) {
      end('slow_consumer');
      return;
    }
    queue.push(frame);
    queuedBytes += size;
    notePeak();
  };

  return {
    write,
    end,
    get bufferedBytes() {
      return res.destroyed ? 0 : res.writableLength + queuedBytes;
    },
    get peakBufferedBytes() {
      return peak;
    },
    get ended() {
      return ended;
    },
    get endReason() {
      return endReason;
    },
    onEnd(listener) {
      if (endReason !== null && ended) listener(endReason);
      else listeners.push(listener);
    },
  };
};
