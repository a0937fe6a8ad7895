export interface AppliedPositionWaiterOptions {
  /** The node's applied position (the read model's checkpoint). */
  appliedPosition(): Promise<number>;
  /** How long one wait may take before it gives up (MIN_POSITION_WAIT_MS). */
  readonly timeoutMs: number;
  /** How often the applied position is read while anyone waits. Default 25 ms. */
  readonly pollMs?: number;
}

interface Waiter {
  readonly position: number;
  readonly deadline: number;
  settle(reached: boolean): void;
}

/**
 * Waits, bounded, until this node has applied a position (docs/subscriptions.md, "Resume"). One
 * poll of the applied position serves every waiter of the node, and it runs only while someone
 * waits: a node that thousands of clients reach from a faster one reads its checkpoint once per
 * tick, not once per client. A position already applied answers after one read.
 */
export const createAppliedPositionWaiter = (options: AppliedPositionWaiterOptions): ((position: number) => Promise<boolean>) => {
  const pollMs = options.pollMs ?? 25;
  const waiters = new Set<Waiter>();
  let polling = false;

  const tick = async (): Promise<void> => {
    let applied: number | null = null;
    try {
      applied = await options.appliedPosition();
    } catch {
      // A failed read is retried next tick; the waiters' deadlines still hold.
    }
    const now = Date.now();
    for (const waiter of [...waiters]) {
      if (applied !== null && applied >= waiter.position) waiter.settle(true);
      else if (now >= waiter.deadline) waiter.settle(false);
    }
    if (waiters.size === 0) {
      polling = false;
      return;
    }
    setTimeout(() => void tick(), pollMs).unref();
  };

  return (position) =>
    new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        position,
        deadline: Date.now() + options.timeoutMs,
        settle: (reached) => {
          waiters.delete(waiter);
          resolve(reached);
        },
      };
      waiters.add(waiter);
      if (!polling) {
        polling = true;
        void tick();
      }
    });
};
