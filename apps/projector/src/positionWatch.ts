/**
 * A position in the log that others wait on: the applier moves it, `waitFor` (read-your-writes)
 * and the publisher wait for it. It only moves forward, except `reset` when a new active period
 * starts from the stored checkpoint (which may be lower after Redis lost its data).
 */
export interface PositionWatch {
  get(): number;
  advance(position: number): void;
  reset(position: number): void;
  /** true once the position reaches `position`; false when `timeoutMs` passes first. */
  reach(position: number, timeoutMs: number): Promise<boolean>;
  /** Resolves once the position is past `after`, or when `signal` aborts. */
  passes(after: number, signal: AbortSignal): Promise<void>;
  /** Answers every waiter now with what it has (on stop). */
  settle(): void;
}

interface Waiter {
  readonly position: number;
  readonly resolve: (reached: boolean) => void;
}

export const createPositionWatch = (initial = 0): PositionWatch => {
  let current = initial;
  const waiters = new Set<Waiter>();
  const wake = (): void => {
    for (const waiter of waiters) {
      if (current < waiter.position) continue;
      waiters.delete(waiter);
      waiter.resolve(true);
    }
  };
  const wait = (position: number, onTimer: (done: (reached: boolean) => void) => () => void): Promise<boolean> =>
    new Promise((resolve) => {
      let cancel = (): void => {};
      const waiter: Waiter = {
        position,
        resolve: (reached) => {
          cancel();
          waiters.delete(waiter);
          resolve(reached);
        },
      };
      waiters.add(waiter);
      cancel = onTimer(waiter.resolve);
    });

  return {
    get: () => current,
    advance(position) {
      if (position <= current) return;
      current = position;
      wake();
    },
    reset(position) {
      current = position;
      wake();
    },
    reach(position, timeoutMs) {
      if (current >= position) return Promise.resolve(true);
      return wait(position, (done) => {
        const timer = setTimeout(() => done(current >= position), timeoutMs);
        return () => clearTimeout(timer);
      });
    },
    async passes(after, signal) {
      if (current > after || signal.aborted) return;
      // Positions are whole numbers: past `after` is at least after + 1.
      await wait(after + 1, (done) => {
        const onAbort = (): void => done(false);
        signal.addEventListener('abort', onAbort, { once: true });
        return () => signal.removeEventListener('abort', onAbort);
      });
    },
    settle() {
      for (const waiter of waiters) waiter.resolve(current >= waiter.position);
    },
  };
};
