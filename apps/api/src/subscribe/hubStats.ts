/** What a hub reports (on /metrics, see hubMetrics.ts). */
export interface HubStats {
  /** Streams attached to a connection. */
  readonly streams: number;
  /** Streams registered but still reading their snapshot. */
  readonly connecting: number;
  /** Bytes held unsent across all connections now. */
  readonly bufferedBytes: number;
  /** The most bytes any one connection held unsent so far. */
  readonly peakBufferedBytesPerStream: number;
  /** Streams ended by the server, per reason. */
  readonly ended: Readonly<Record<string, number>>;
  /** Collection page reads done (snapshots and recomputes; shared reads counted once). */
  readonly pageReads: number;
  readonly changeMessages: number;
  /** Frames the streams accepted since start (one per frame per stream). */
  readonly framesSent: number;
}

/** What stats need of a stream's connection. */
export interface ConnectionBytes {
  readonly bufferedBytes: number;
  readonly peakBufferedBytes: number;
}

/**
 * The tallies that outlive the streams (ends per reason, the largest per-stream buffer of the ones
 * gone), and the stats: those plus what the open streams hold now, read at scrape time.
 */
export class HubTally {
  private readonly endedCounts: Record<string, number> = {};
  private peakOfEnded = 0;

  countEnd(reason: string): void {
    this.endedCounts[reason] = (this.endedCounts[reason] ?? 0) + 1;
  }

  /** A stream is gone: keep its peak. */
  keepPeak(connection: ConnectionBytes | null): void {
    if (connection && connection.peakBufferedBytes > this.peakOfEnded) this.peakOfEnded = connection.peakBufferedBytes;
  }

  /** The stats, over the open streams' connections (null while a stream is connecting). */
  stats(connections: Iterable<ConnectionBytes | null>, counts: { pageReads: number; changeMessages: number; framesSent: number }): HubStats {
    let bufferedBytes = 0;
    let streams = 0;
    let connecting = 0;
    let peak = this.peakOfEnded;
    for (const connection of connections) {
      if (!connection) {
        connecting++;
        continue;
      }
      streams++;
      bufferedBytes += connection.bufferedBytes;
      peak = Math.max(peak, connection.peakBufferedBytes);
    }
    return { streams, connecting, bufferedBytes, peakBufferedBytesPerStream: peak, ended: { ...this.endedCounts }, ...counts };
  }
}
