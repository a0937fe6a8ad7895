import type { PositionWaiter } from './positionWaiter.js';

interface Waiter {
  readonly position: number;
  readonly resolve: (reached: boolean) => void;
}

export interface PollingPositionWaiterOptions {
  /** The node's applied position (ReadModel.appliedPosition). */
  readonly applied: () => Promise<number>;
  /** Poll interval while anyone waits. Default 25 ms. */
  readonly intervalMs?: number;
}

/**
 * One poller per node, shared by every waiter, running only while someone waits: a read without
 * minPosition never touches it. A failed poll (Redis down) counts as "not yet"; the waiter's own
 * bound still answers it.
 */
export const createPollingPositionWaiter = (options: PollingPositionWaiterOptions): PositionWaiter => {
  const intervalMs = options.intervalMs ?? 25;
  const waiters = new Set<Waiter>();
  let known = 0;
  let timer: NodeJS.Timeout | null = null;
  let polling = false;

  const wake = (): void => {
    for (const waiter of waiters) if (known >= waiter.position) waiter.resolve(true);
  };
  const poll = async (): Promise<void> => {
    if (polling) return;
    polling = true;
    try {
      known = Math.max(known, await options.applied());
      wake();
    } catch {
      // Unreachable read model: keep waiting; each waiter's bound answers it.
    } finally {
      polling = false;
    }
  };
  const schedule = (): void => {
    if (timer || waiters.size === 0) return;
    timer = setInterval(() => {
      if (waiters.size === 0) {
        clearInterval(timer as NodeJS.Timeout);
        timer = null;
        return;
      }
      void poll();
    }, intervalMs);
    timer.unref();
  };

  return {
    reached(position, timeoutMs) {
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          position,
          resolve: (reached) => {
            clearTimeout(bound);
            waiters.delete(waiter);
            resolve(reached);
          },
        };
        const bound = setTimeout(() => waiter.resolve(known >= position), timeoutMs);
        waiters.add(waiter);
        // Ask at once: the position is usually applied already (a write a few ms ago).
        void poll();
        schedule();
      });
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
      for (const waiter of waiters) waiter.resolve(known >= waiter.position);
    },
  };
};
