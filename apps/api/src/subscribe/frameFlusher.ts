/**
 * When the SSE connections of a process hand their queued frames to their sockets.
 *
 * A socket write is a system call (on loopback it also runs the receiver's side of TCP), and with
 * many subscribers it is the fanout's main cost: one write per connection per frame is what made
 * 1,000 subscribers at 50 writes/s fall seconds behind. So connections with frames waiting are
 * flushed together, once per event-loop turn, and the flushes are paced by what they cost: after a
 * pass over the sockets took D ms, the next one starts no sooner than D ms after it ended. The
 * node then spends at most about half of its time in socket writes whatever the number of
 * streams: with few streams a pass is cheap and frames go out at once; with many, each pass carries
 * more frames per socket (an item update and its collection page, a burst of writes) and latency
 * grows by about one pass instead of without bound.
 */
export interface FrameFlusher {
  /** Runs `flush` in the next pass (call it once per connection until it has run). */
  schedule(flush: () => void): void;
  /**
   * Calls `listener` once the next pass has handed its writes to the sockets (for the fanout
   * latency metric). Only a pass that is scheduled or comes later does: call it after `schedule`.
   */
  afterNextPass(listener: () => void): void;
}

/** A flusher with its own pacing; `now` in milliseconds (performance.now by default). */
export const createFrameFlusher = (now: () => number = () => performance.now()): FrameFlusher => {
  let waiting: (() => void)[] = [];
  let listeners: (() => void)[] = [];
  let lastCostMs = 0;
  let lastEndedAt = Number.NEGATIVE_INFINITY;

  const pass = (): void => {
    const flushes = waiting;
    const passed = listeners;
    waiting = [];
    listeners = [];
    const startedAt = now();
    for (const flush of flushes) flush();
    // The writes themselves happen when Node uncorks the responses on the next tick: measure the
    // pass after those ticks (this one is queued behind them).
    process.nextTick(() => {
      lastEndedAt = now();
      lastCostMs = lastEndedAt - startedAt;
      for (const listener of passed) listener();
    });
  };

  return {
    schedule(flush) {
      if (waiting.push(flush) > 1) return;
      const waitMs = lastEndedAt + lastCostMs - now();
      if (waitMs >= 1) setTimeout(pass, waitMs);
      else setImmediate(pass);
    },
    afterNextPass(listener) {
      listeners.push(listener);
    },
  };
};
