import type { ServerResponse } from 'node:http';
import { sharedFrameFlusher, type FrameFlusher } from './frameFlusher.js';
import { reconnectFrame, type ReconnectReason } from './sseFrames.js';

export interface SseConnectionOptions {
  /**
   * Most bytes a connection may hold unsent (Node's socket buffer plus its own queue). A client
   * that lets more pile up is cut with `reconnect {reason: "slow_consumer"}`.
   */
  readonly maxBufferedBytes: number;
  /** How long an ended stream may take to flush before its socket is destroyed. */
  readonly closeGraceMs: number;
  /** Paces the socket writes; the process's shared one by default. */
  readonly flusher?: FrameFlusher;
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

/**
 * Writes SSE frames to the response socket with a bounded queue. Frames are queued and written
 * together by the flusher's next pass (one socket write for all of them); after
 * back-pressure they wait until `drain`. When socket buffer + queue would exceed the bound, the
 * queue is dropped, `reconnect {reason: "slow_consumer"}` is written and the stream is ended; if it
 * cannot flush within the grace period the socket is destroyed. So one stuck client costs at most
 * about `maxBufferedBytes` plus one frame.
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
  let queue: string[] = [];
  let queuedBytes = 0;
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
    const now = socketBytes + queuedBytes;
    if (now > peak) peak = now;
  };
  const listeners: ((reason: ReconnectReason | 'client_closed') => void)[] = [];

  const finish = (reason: ReconnectReason | 'client_closed'): void => {
    if (endReason === null) endReason = reason;
    const callbacks = listeners.splice(0);
    for (const listener of callbacks) listener(endReason);
  };

  /** Hands every queued frame to the socket in one write; `track` false for the closing write. */
  const writeQueue = (track = true): void => {
    if (queue.length === 0 || res.destroyed || res.writableEnded) return;
    const accepted = rawChunks ? socket.write(batchChunk(queue)) : res.write(batchBytes(queue));
    queue = [];
    queuedBytes = 0;
    if (!accepted) {
      waitingForDrain = true;
      (rawChunks ? socket : res).once('drain', onDrain);
    }
    socketBytes = res.writableLength;
    if (track) notePeak();
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

  const end = (reason: ReconnectReason | null): void => {
    if (ended) return;
    ended = true;
    // Frames queued in this turn would have been written already had they not been batched
    // (they fit the bound); frames held back by back-pressure are dropped.
    if (waitingForDrain) queue = [];
    // The queued frames were counted against the bound when queued; the last frame may exceed it.
    if (reason !== null) queue.push(reconnectFrame(reason));
    writeQueue(false);
    queue = [];
    queuedBytes = 0;
    if (reason !== null) endReason = reason;
    if (!res.destroyed && !res.writableEnded) res.end();
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
    const size = byteLengthOf(frame);
    if (socketBytes + queuedBytes + size > options.maxBufferedBytes) {
      // Near the bound: look at what the socket really holds now before judging.
      socketBytes = res.writableLength;
      const held = socketBytes + queuedBytes;
      // A frame bigger than the bound still goes out alone on an empty buffer (one can be huge).
      if (held > 0 && held + size > options.maxBufferedBytes) {
        end('slow_consumer');
        return;
      }
    }
    queue.push(frame);
    queuedBytes += size;
    notePeak();
    if (!waitingForDrain && !flushScheduled) {
      flushScheduled = true;
      flusher.schedule(flush);
    }
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
