import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { httpChunk, type FrameBytes } from './frameBytes.js';
import type { FrameQueue } from './frameQueue.js';

/** Most bytes handed to a socket in one write when a connection has much to send (a snapshot, a backlog). */
export const SLICE_BYTES = 16 * 1024;

/**
 * Hands a connection's queued frames to its socket and follows back-pressure (docs/subscriptions.md,
 * "Fanout"): one write for all the frames of a flush pass when they are few, else a slice at a time
 * while the socket takes them, so that what a socket holds of a snapshot or a backlog of its own is
 * one slice at most. After a refused write nothing more goes until the socket drains.
 *
 * Once the headers are out, a chunked HTTP/1.1 response's body goes straight to its socket as
 * ready-made chunks: the same chunk bytes serve every subscriber of a pass, and the per-write work
 * of ServerResponse (chunk header, cork, next-tick uncork, a three-part writev) is skipped; that was
 * a tenth of the node's time under fanout. `res.end()` still writes the last chunk.
 */
export class SocketWriter {
  /** The socket to write chunks to directly, or null to write through the response. */
  private readonly chunkSocket: Socket | null;
  /** A write was refused: nothing more is written until the socket drains. */
  waitingForDrain = false;
  /**
   * The socket's unsent bytes as last read (after every write, and on `refreshUnsent`). Between
   * writes the socket only drains, so this is an upper bound: a pass over thousands of streams does
   * not walk ServerResponse's getters per frame.
   */
  unsentBytes = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly bytes: FrameBytes,
    private readonly onDrain: () => void,
  ) {
    this.chunkSocket = res.socket !== null && res.chunkedEncoding ? res.socket : null;
  }

  /** Reads what the socket holds unsent now. */
  refreshUnsent(): number {
    this.unsentBytes = this.res.writableLength;
    return this.unsentBytes;
  }

  /** Writes what `queue` holds, as far as the socket takes it; `afterWrite` runs after each write. */
  writeQueue(queue: FrameQueue, afterWrite: () => void): void {
    if (queue.length === 0 || this.res.destroyed || this.res.writableEnded) return;
    // Small, or one delta (whose bytes the subscribers of a pass share): all at once.
    if (!queue.partial && (queue.bytes <= SLICE_BYTES || queue.singleDelta)) {
      // The shared bytes are found (or made) before the queue is cleared: `whole` is a view of it.
      const batch = this.chunkSocket ? this.bytes.batchChunk(queue.whole) : this.bytes.batch(queue.whole);
      queue.clear();
      this.accepted(this.chunkSocket ? this.chunkSocket.write(batch) : this.res.write(batch));
      afterWrite();
      return;
    }
    let accepted = true;
    while (accepted && queue.length > 0) {
      const slice = Buffer.from(queue.takeSlice(SLICE_BYTES));
      accepted = this.accepted(this.chunkSocket ? this.chunkSocket.write(httpChunk(slice)) : this.res.write(slice));
      afterWrite();
    }
  }

  private accepted(accepted: boolean): boolean {
    if (!accepted && !this.waitingForDrain) {
      this.waitingForDrain = true;
      (this.chunkSocket ?? this.res).once('drain', this.drained);
    }
    this.unsentBytes = this.res.writableLength;
    return accepted;
  }

  private readonly drained = (): void => {
    this.waitingForDrain = false;
    this.unsentBytes = this.res.writableLength;
    this.onDrain();
  };
}
