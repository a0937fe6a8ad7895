import type { EventSubscription, RecordedEvent } from './eventStore.js';

const noop = (): void => undefined;

/** Calls the subscription's handler with one batch; the delivery loop awaits what it returns. */
export type Deliver = (events: RecordedEvent[]) => Promise<void>;

/**
 * The EventSubscription of a delivery loop: `done` is `run`, which hands every batch to the
 * handler through `deliver`; close() calls `stop` and then waits for the loop to end, except when
 * called from the handler itself, where that wait would be a deadlock (the loop waits for the
 * handler, which waits for close()).
 *
 * "From the handler" is an explicit flag, set while `deliver` runs the handler's synchronous part
 * (up to its first await), not an AsyncLocalStorage: that would switch on promise hooks for the
 * whole process (docs/decisions.md, "No AsyncLocalStorage on the hot path"). A handler that
 * closes its subscription after an await must not await close() (`void subscription.close()`):
 * the loop then stops after that handler returns.
 */
export const runningSubscription = (
  handler: (events: RecordedEvent[]) => Promise<void>,
  run: (deliver: Deliver) => Promise<void>,
  stop: () => void | Promise<void>,
): EventSubscription => {
  let insideHandler = 0;
  const deliver: Deliver = (events) => {
    insideHandler += 1;
    try {
      return handler(events);
    } finally {
      insideHandler -= 1;
    }
  };
  const done = run(deliver);
  // Marks the rejection as handled for callers that never look at `done`; awaiting it still rejects.
  done.catch(noop);
  return {
    done,
    async close() {
      const fromHandler = insideHandler > 0;
      await stop();
      if (!fromHandler) await done.catch(noop);
    },
  };
};
