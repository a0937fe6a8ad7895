/** A timer handle of {@link TimerSet}. */
export type Timer = ReturnType<typeof setTimeout>;

/** Timers that can all be cancelled at once, so a closed subscription leaves nothing running. */
export interface TimerSet {
  /** Runs `fn` after `ms`, unless cancelled first. */
  later(ms: number, fn: () => void): Timer;
  /** Cancels one timer; `undefined` and fired timers are ignored. */
  cancel(timer: Timer | undefined): void;
  /** Cancels every pending timer. */
  clear(): void;
  /** How many timers are pending. */
  readonly size: number;
}

/** Creates an empty {@link TimerSet}. */
export function createTimerSet(): TimerSet {
  const timers = new Set<Timer>();
  return {
    later(ms, fn) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
      return timer;
    },
    cancel(timer) {
      if (timer === undefined) return;
      clearTimeout(timer);
      timers.delete(timer);
    },
    clear() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    get size() {
      return timers.size;
    },
  };
}
