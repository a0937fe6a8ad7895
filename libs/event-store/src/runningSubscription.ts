import type { EventSubscription } from './eventStore.js';
import { handlerScope } from './handlerScope.js';

const noop = (): void => undefined;

/**
 * The EventSubscription of a delivery loop: `done` is `run` (which must deliver inside
 * `handlerScope.run(subscription, ...)`), close() calls `stop` and then waits for the loop to end,
 * except when called from the subscription's own handler, where that wait would be a deadlock.
 */
export const runningSubscription = (
  run: (subscription: EventSubscription) => Promise<void>,
  stop: () => void | Promise<void>,
): EventSubscription => {
  let done: Promise<void> = Promise.resolve();
  const subscription: EventSubscription = {
    get done() {
      return done;
    },
    async close() {
      await stop();
      if (handlerScope.getStore() === subscription) return;
      await done.catch(noop);
    },
  };
  done = run(subscription);
  // Marks the rejection as handled for callers that never look at `done`; awaiting it still rejects.
  done.catch(noop);
  return subscription;
};
