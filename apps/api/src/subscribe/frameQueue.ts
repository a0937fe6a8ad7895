/**
 * What a queued frame is, for the slow-consumer bound: a `delta` is judged by it; a `snapshot`
 * frame is not (the snapshot is written with back-pressure whatever its size); an `oversize` delta
 * (bigger than the bound by itself, e.g. a page of large items) is not either, but a connection may
 * hold only one at a time.
 */
export type FrameKind = 'delta' | 'snapshot' | 'oversize';

/**
 * The frames of one SSE connection not yet handed to its socket, in order. Frames leave whole
 * (`takeAll`, the fast path shared by every subscriber of a pass) or as slices of at most a given
 * number of bytes (`takeSlice`), so a large snapshot or page never sits whole in the socket's buffer.
 * A slice never splits a UTF-16 surrogate pair, so every slice encodes to valid UTF-8 by itself.
 */
export class FrameQueue {
  private frames: string[] = [];
  private sizes: number[] = [];
  private kinds: FrameKind[] = [];
  /** Characters and bytes of frames[0] already taken by a slice. */
  private headChars = 0;
  private headBytes = 0;
  /** Unsent bytes queued. */
  bytes = 0;
  /** Unsent bytes of queued deltas: what the bound judges. */
  countedBytes = 0;
  /** Oversize deltas queued (taken in part or not at all). */
  oversize = 0;

  get length(): number {
    return this.frames.length;
  }

  /** True when a frame has been sent in part: the stream cannot carry another message until it is done. */
  get partial(): boolean {
    return this.headChars > 0;
  }

  /** One delta and nothing else: written whole, its bytes are likely the ones every subscriber of the pass shares. */
  get singleDelta(): boolean {
    return this.frames.length === 1 && this.kinds[0] === 'delta' && this.headChars === 0;
  }

  push(frame: string, size: number, kind: FrameKind): void {
    this.frames.push(frame);
    this.sizes.push(size);
    this.kinds.push(kind);
    this.bytes += size;
    if (kind === 'delta') this.countedBytes += size;
    else if (kind === 'oversize') this.oversize++;
  }

  /** Every frame, whole (call only when nothing is `partial`); the queue is then empty. */
  takeAll(): string[] {
    const frames = this.frames;
    this.frames = [];
    this.clear();
    return frames;
  }

  /**
   * The queued frames, whole (when nothing is `partial`): a view that the next `push` or `clear`
   * changes. The flush pass reads it and then clears the queue, which keeps its arrays: no three
   * new arrays per stream per pass (docs/subscriptions.md, "Performance").
   */
  get whole(): readonly string[] {
    return this.frames;
  }

  /** The next bytes to send, at most about `maxBytes` (at least one character), frames joined in order. */
  takeSlice(maxBytes: number): string {
    const parts: string[] = [];
    let taken = 0;
    let index = 0;
    while (index < this.frames.length && taken < maxBytes) {
      const frame = this.frames[index] as string;
      const kind = this.kinds[index] as FrameKind;
      const rest = (this.sizes[index] as number) - this.headBytes;
      // At most 3 UTF-8 bytes per UTF-16 unit, so this many units fit the room left.
      let end = Math.min(frame.length, this.headChars + Math.max(2, Math.floor((maxBytes - taken) / 3)));
      if (taken + rest <= maxBytes || end === frame.length) {
        parts.push(this.headChars > 0 ? frame.slice(this.headChars) : frame);
        taken += rest;
        this.account(kind, rest, true);
        this.headChars = 0;
        this.headBytes = 0;
        index++;
        continue;
      }
      if (taken > 0 && maxBytes - taken < 64) break;
      const code = frame.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--;
      const part = frame.slice(this.headChars, end);
      const partBytes = Buffer.byteLength(part);
      parts.push(part);
      this.account(kind, partBytes, false);
      this.headChars = end;
      this.headBytes += partBytes;
      break;
    }
    this.frames.splice(0, index);
    this.sizes.splice(0, index);
    this.kinds.splice(0, index);
    return parts.length === 1 ? (parts[0] as string) : parts.join('');
  }

  clear(): void {
    this.frames.length = 0;
    this.sizes.length = 0;
    this.kinds.length = 0;
    this.headChars = 0;
    this.headBytes = 0;
    this.bytes = 0;
    this.countedBytes = 0;
    this.oversize = 0;
  }

  private account(kind: FrameKind, bytes: number, done: boolean): void {
    this.bytes -= bytes;
    if (kind === 'delta') this.countedBytes -= bytes;
    else if (kind === 'oversize' && done) this.oversize--;
  }
}
