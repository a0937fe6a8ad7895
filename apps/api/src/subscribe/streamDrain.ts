import type { ReconnectHints } from './reconnectHints.js';
import type { ReconnectReason } from './sseFrames.js';

export interface StreamDrainOptions {
  /** How long `drain` waits for the streams to be gone. */
  readonly timeoutMs: number;
  readonly hints: Pick<ReconnectHints, 'spreadOverWindow'>;
}

/**
 * A node's graceful stop of its streams (docs/subscriptions.md, "Reconnect hints"): from the first
 * `drain` on, new streams are refused; every stream ends at once, for `shutdown` each with its own
 * wait spread over the shutdown window; `drain` resolves when the last one is gone (`settled`), or
 * after the timeout.
 */
export class StreamDrain {
  private isDraining = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: StreamDrainOptions) {}

  get draining(): boolean {
    return this.isDraining;
  }

  /**
   * Ends `streams` with `reason` (`end` gets each one's spread wait, or undefined for its
   * reason's own hint) and waits until `remaining()` is 0 or the timeout passes.
   */
  async drain<S>(reason: ReconnectReason, streams: readonly S[], end: (stream: S, retryAfterMs: number | undefined) => void, remaining: () => number): Promise<void> {
    this.isDraining = true;
    const delays = reason === 'shutdown' ? this.options.hints.spreadOverWindow(streams.length) : [];
    streams.forEach((stream, index) => end(stream, delays[index]));
    if (remaining() === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.timeoutMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.waiters = [];
  }

  /** The last stream is gone: a waiting `drain` returns. */
  settled(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
