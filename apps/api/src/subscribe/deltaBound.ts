import type { FrameKind } from './frameQueue.js';

/** What the bound reads of the socket: its unsent bytes as last read, and a fresh read. */
export interface UnsentSocket {
  readonly unsentBytes: number;
  refreshUnsent(): number;
}

/** What the bound reads of the queue: the deltas queued, and the oversize deltas among them. */
export interface QueuedDeltas {
  readonly countedBytes: number;
  readonly oversize: number;
}

/**
 * The slow-consumer bound of one connection (docs/subscriptions.md, "Bounded buffers"): the deltas
 * a connection holds unsent (the socket's unsent bytes plus the deltas queued behind them) may not
 * exceed `maxBytes`. A delta bigger than the bound by itself (a page of large items) is let through
 * alone, to be sent in slices; a second one behind it means the client does not keep up.
 */
export class DeltaBound {
  private peakBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The most bytes the bound ever judged on this connection. */
  get peak(): number {
    return this.peakBytes;
  }

  /** Notes what is held now, for the peak. */
  note(socketBytes: number, queued: QueuedDeltas): void {
    const now = socketBytes + queued.countedBytes;
    if (now > this.peakBytes) this.peakBytes = now;
  }

  /** How a delta of `size` bytes is queued, or `cut` when it would take the connection over the bound. */
  judge(size: number, queued: QueuedDeltas, socket: UnsentSocket): Exclude<FrameKind, 'snapshot'> | 'cut' {
    if (size > this.maxBytes) return queued.oversize > 0 ? 'cut' : 'oversize';
    if (socket.unsentBytes + queued.countedBytes + size <= this.maxBytes) return 'delta';
    // Near the bound: look at what the socket really holds now before judging.
    return socket.refreshUnsent() + queued.countedBytes + size > this.maxBytes ? 'cut' : 'delta';
  }
}
