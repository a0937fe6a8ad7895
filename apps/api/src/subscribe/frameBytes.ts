/** The same frame strings in the same order (a loop, not a closure per call: it runs once per socket per pass). */
const sameFrames = (frames: readonly string[], last: readonly string[]): boolean => {
  if (frames.length !== last.length) return false;
  for (let index = 0; index < frames.length; index++) if (frames[index] !== last[index]) return false;
  return true;
};

/** One HTTP/1.1 chunk: hex length, CRLF, the bytes, CRLF. */
export const httpChunk = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);

/**
 * The bytes of the frames the connections of one hub write, encoded once and reused (owned by the
 * hub, passed to each of its connections). The hub writes the same frame string to every
 * subscriber, and most connections get the same frames in the same flush pass (an item update, a
 * collection page), so the last frame's size and the last batch's bytes and HTTP/1.1 chunk serve
 * every socket of the pass instead of being joined and encoded once per socket; with 10,000
 * streams that is most of the encoding work (docs/subscriptions.md, "Fanout").
 */
export class FrameBytes {
  private lastFrame = '';
  private lastFrameBytes = 0;
  private lastBatch: readonly string[] = [];
  private lastBatchBytes = Buffer.alloc(0);
  private lastBatchChunk: Buffer | null = null;

  /** UTF-8 size of a frame. */
  byteLength(frame: string): number {
    if (frame !== this.lastFrame) {
      this.lastFrame = frame;
      this.lastFrameBytes = Buffer.byteLength(frame);
    }
    return this.lastFrameBytes;
  }

  /** The frames joined, as bytes (the same Buffer for the same frames in a row). */
  batch(frames: readonly string[]): Buffer {
    this.remember(frames);
    return this.lastBatchBytes;
  }

  /** The frames joined, framed as one HTTP/1.1 chunk (the same Buffer for the same frames in a row). */
  batchChunk(frames: readonly string[]): Buffer {
    this.remember(frames);
    this.lastBatchChunk ??= httpChunk(this.lastBatchBytes);
    return this.lastBatchChunk;
  }

  private remember(frames: readonly string[]): void {
    if (sameFrames(frames, this.lastBatch)) return;
    // A copy: the caller's array may be a queue's own, emptied and refilled after this write.
    this.lastBatch = frames.slice();
    this.lastBatchBytes = Buffer.from(frames.length === 1 ? (frames[0] as string) : frames.join(''));
    this.lastBatchChunk = null;
  }
}
