import type { EventSubscription } from './eventStore.js';

/** The live subscriptions of an event store, so that close() can stop them all. */
export interface SubscriptionSet {
  /** Remembers the subscription until it ends (or fails); returns it. */
  track(subscription: EventSubscription): EventSubscription;
  /** Closes every live subscription and waits for them. */
  closeAll(): Promise<void>;
  readonly size: number;
}

/** Creates an empty {@link SubscriptionSet}. */
export function createSubscriptionSet(): SubscriptionSet {
  const subscriptions = new Set<EventSubscription>();
  return {
    track(subscription) {
      subscriptions.add(subscription);
      const forget = (): boolean => subscriptions.delete(subscription);
      void subscription.done.then(forget, forget);
      return subscription;
    },
    async closeAll() {
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
    },
    get size() {
      return subscriptions.size;
    },
  };
}
