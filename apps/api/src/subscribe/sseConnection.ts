import type { ServerResponse } from 'node:http';
import { sharedFrameFlusher, type FrameFlusher } from './frameFlusher.js';
import { FrameQueue, type FrameKind } from './frameQueue.js';
import { reconnectFrame, type ReconnectReason } from './sseFrames.js';

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
  /** Paces the socket writes; the process's shared one by default. */
  readonly flusher?: FrameFlusher;
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

/** UTF-8 size of a frame. The hub writes the same string to every subscriber, so one entry hits. */
let lastFrame = '';
let lastFrameBytes = 0;
const byteLengthOf = (frame: string): number => {
  if (frame !== lastFrame) {
    lastFrame = frame;
    lastFrameBytes = Buffer.byteLength(frame);
  }
  return lastFrameBytes;
};

/**
 * The bytes of a batch of frames. Most connections get the same frames in the same pass (an item
 * update, a collection page), so the last batch's bytes are reused instead of joining and
 * encoding the same text once per socket, and so is its HTTP/1.1 chunk (see `rawChunks`).
 */
let lastBatch: readonly string[] = [];
let lastBatchBytes = Buffer.alloc(0);
let lastBatchChunk: Buffer | null = null;
const sameBatch = (frames: readonly string[]): boolean => {
  if (frames.length !== lastBatch.length || frames.some((frame, index) => frame !== lastBatch[index])) {
    lastBatch = frames;
    lastBatchBytes = Buffer.from(frames.length === 1 ? (frames[0] as string) : frames.join(''));
    lastBatchChunk = null;
    return false;
  }
  return true;
};
const batchBytes = (frames: readonly string[]): Buffer => {
  sameBatch(frames);
  return lastBatchBytes;
};
const batchChunk = (frames: readonly string[]): Buffer => {
  sameBatch(frames);
  lastBatchChunk ??= Buffer.concat([Buffer.from(`${lastBatchBytes.length.toString(16)}\r\n`), lastBatchBytes, Buffer.from('\r\n')]);
  return lastBatchChunk;
};

/** Most bytes handed to a socket in one write when a connection has much to send (a snapshot, a backlog). */
export const SLICE_BYTES = 16 * 1024;

const chunkOf = (text: string): Buffer => {
  const bytes = Buffer.from(text);
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
};

/**
 * Writes SSE frames to the response socket with a bounded queue (docs/subscriptions.md,
 * "Bounded buffers"). Frames are queued and written together by the flusher's next pass (one
 * socket write for all of them); after back-pressure they wait until `drain`. A snapshot, or a
 * backlog over `SLICE_BYTES`, goes out a slice at a time, each after the socket took the last, so
 * the socket never holds more than about one slice of it. Deltas are judged by the bound: when the
 * socket's unsent bytes plus the deltas queued behind them would exceed it, the queue is dropped,
 * `reconnect {reason: "slow_consumer", retryAfterMs}` is written and the stream is ended; if it
 * cannot flush within the grace period the socket is destroyed.
 *
 * Once the headers are out, a chunked HTTP/1.1 response's body goes straight to its socket as
 * ready-made chunks (`rawChunks`): the same chunk bytes serve every subscriber of a pass, and the
 * per-write work of ServerResponse (chunk header, cork, next-tick uncork, a three-part writev) is
 * skipped; that was a tenth of the node's time under fanout. `res.end()` still writes the last chunk.
 */
export const createSseConnection = (res: ServerResponse, options: SseConnectionOptions): SseConnection => {
  const flusher = options.flusher ?? sharedFrameFlusher;
  res.flushHeaders();
  const socket = res.socket;
  const rawChunks = socket !== null && res.chunkedEncoding;
  const queue = new FrameQueue();
  let inSnapshot = false;
  let waitingForDrain = false;
  let flushScheduled = false;
  let ended = false;
  let endReason: ReconnectReason | 'client_closed' | null = null;
  let graceTimer: NodeJS.Timeout | null = null;
  let peak = 0;
  /**
   * The socket's unsent bytes as last read (after every write, and again whenever a frame would
   * cross the bound). Between writes the socket only drains, so this is an upper bound: the bound
   * holds, and a pass over thousands of streams does not walk ServerResponse's getters per frame.
   */
  let socketBytes = 0;
  const notePeak = (): void => {
    const now = socketBytes + queue.countedBytes;
    if (now > peak) peak = now;
  };
  const listeners: ((reason: ReconnectReason | 'client_closed') => void)[] = [];

  const finish = (reason: ReconnectReason | 'client_closed'): void => {
    if (endReason === null) endReason = reason;
    const callbacks = listeners.splice(0);
    for (const listener of callbacks) listener(endReason);
  };

  const afterWrite = (accepted: boolean, track: boolean): boolean => {
    if (!accepted && !waitingForDrain) {
      waitingForDrain = true;
      (rawChunks ? socket : res).once('drain', onDrain);
    }
    socketBytes = res.writableLength;
    if (track) notePeak();
    return accepted;
  };

  /**
   * Hands queued frames to the socket: all at once when small (or one delta, whose bytes the
   * subscribers of a pass share), else slice by slice while it takes them, so that what a socket
   * holds of a snapshot or a backlog of its own is one slice at most.
   */
  const writeQueue = (track = true): void => {
    if (queue.length === 0 || res.destroyed || res.writableEnded) return;
    if (!queue.partial && (queue.bytes <= SLICE_BYTES || queue.singleDelta)) {
      const frames = queue.takeAll();
      afterWrite(rawChunks ? socket.write(batchChunk(frames)) : res.write(batchBytes(frames)), track);
      return;
    }
    let accepted = true;
    while (accepted && queue.length > 0) {
      const slice = queue.takeSlice(SLICE_BYTES);
      accepted = afterWrite(rawChunks ? socket.write(chunkOf(slice)) : res.write(Buffer.from(slice)), track);
    }
  };

  const flush = (): void => {
    flushScheduled = false;
    if (!ended && !waitingForDrain) writeQueue();
  };

  function onDrain(): void {
    waitingForDrain = false;
    socketBytes = res.writableLength;
    if (!ended) writeQueue();
  }

  const end = (reason: ReconnectReason | null, retryAfterMs?: number): void => {
    if (ended) return;
    ended = true;
    // A frame sent in part cannot be followed by another message: the stream just closes, and the
    // client reconnects after its `retry:`. Frames queued in this turn would have been written
    // already had they not been batched; frames held back by back-pressure, or a large remainder
    // (a snapshot), are dropped: the client gets a fresh snapshot when it reconnects.
    const partial = queue.partial;
    if (waitingForDrain || partial || queue.bytes > SLICE_BYTES) queue.clear();
    if (reason !== null && !partial) {
      const frame = reconnectFrame(reason, retryAfterMs);
      queue.push(frame, byteLengthOf(frame), 'snapshot');
    }
    // The closing write does not count toward the peak: the last frame may exceed the bound.
    writeQueue(false);
    queue.clear();
    if (reason !== null) endReason = reason;
    if (!res.destroyed && !res.writableEnded) res.end();
    closeSocket();
    finish(reason ?? 'client_closed');
  };

  /**
   * A stream's connection is never reused: once the response is out, the socket is closed, so the
   * client's next request (its reconnection) opens a new connection, one that a load balancer can
   * send to another node, and a client that stopped reading cannot keep the socket. If the client
   * has not taken everything and closed within the grace period, the socket is destroyed.
   */
  const closeSocket = (): void => {
    if (socket === null) {
      if (!res.writableFinished && !res.destroyed) graceTimer = setTimeout(() => res.destroy(), options.closeGraceMs);
    } else if (!socket.destroyed) {
      if (res.writableFinished) socket.end();
      else res.once('finish', () => socket.end());
      graceTimer = setTimeout(() => socket.destroy(), options.closeGraceMs);
      socket.once('close', () => clearTimeout(graceTimer ?? undefined));
    }
    graceTimer?.unref();
  };

  const cut = (): void => end('slow_consumer', options.retryAfterMs?.('slow_consumer'));

  res.on('close', () => {
    if (socket === null && graceTimer) clearTimeout(graceTimer);
    if (!ended) {
      ended = true;
      queue.clear();
      finish('client_closed');
    }
  });

  const write = (frame: string): void => {
    if (ended) return;
    const size = byteLengthOf(frame);
    let kind: FrameKind = inSnapshot ? 'snapshot' : 'delta';
    if (kind === 'delta' && size > options.maxBufferedBytes) {
      // A delta bigger than the bound by itself (a page of large items) is sent in slices like a
      // snapshot; a second one behind it means the client does not keep up.
      if (queue.oversize > 0) return cut();
      kind = 'oversize';
    } else if (kind === 'delta' && socketBytes + queue.countedBytes + size > options.maxBufferedBytes) {
      // Near the bound: look at what the socket really holds now before judging.
      socketBytes = res.writableLength;
      if (socketBytes + queue.countedBytes + size > options.maxBufferedBytes) return cut();
    }
    queue.push(frame, size, kind);
    notePeak();
    if (!waitingForDrain && !flushScheduled) {
      flushScheduled = true;
      flusher.schedule(flush);
    }
  };

  return {
    write,
    snapshot(apply) {
      inSnapshot = true;
      try {
        apply();
      } finally {
        inSnapshot = false;
      }
    },
    end,
    get bufferedBytes() {
      return res.destroyed ? 0 : res.writableLength + queue.bytes;
    },
    get boundedBytes() {
      return res.destroyed ? 0 : res.writableLength + queue.countedBytes;
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
