import { createFrameFlusher, type FrameFlusher } from './frameFlusher.js';
import { FrameBytes } from './frameBytes.js';

/**
 * What the SSE connections of one hub share to write their sockets: the flusher that batches and
 * paces their writes, and the bytes of the frames they all send (encoded once per pass, not once
 * per socket). The hub owns it; the route passes it to each connection.
 */
export interface ConnectionOutput {
  readonly flusher: FrameFlusher;
  readonly bytes: FrameBytes;
  /** Frames the hub's connections accepted (one per frame per stream), for /metrics. */
  readonly sent: FrameCount;
}

/** A tally the connections of one hub share: a plain field, one increment per frame. */
export interface FrameCount {
  frames: number;
}

export const createConnectionOutput = (): ConnectionOutput => ({ flusher: createFrameFlusher(), bytes: new FrameBytes(), sent: { frames: 0 } });
