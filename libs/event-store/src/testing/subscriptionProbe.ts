import type { EventStore, EventSubscription, RecordedEvent } from '../eventStore.js';

/** A subscription that records what it receives, for tests that wait on what arrived. */
export interface SubscriptionProbe {
  readonly events: RecordedEvent[];
  readonly batchSizes: number[];
  readonly subscription: EventSubscription;
  /** Resolves once `predicate` holds for the events received so far; rejects after `timeoutMs`. */
  until(predicate: (events: RecordedEvent[]) => boolean, timeoutMs?: number): Promise<RecordedEvent[]>;
}

/**
 * Subscribes to all from `after`, keeping only events for which `keep` is true (a shared server
 * holds other tests' events too).
 */
export const probeSubscription = (
  store: EventStore,
  options: { after: number; batchSize?: number; keep?: (event: RecordedEvent) => boolean },
): SubscriptionProbe => {
  const events: RecordedEvent[] = [];
  const batchSizes: number[] = [];
  const listeners = new Set<() => void>();
  const keep = options.keep ?? (() => true);
  const subscription = store.subscribeToAll({ after: options.after, batchSize: options.batchSize }, async (batch) => {
    batchSizes.push(batch.length);
    events.push(...batch.filter(keep));
    for (const listener of [...listeners]) listener();
  });
  return {
    events,
    batchSizes,
    subscription,
    until(predicate, timeoutMs = 10_000) {
      if (predicate(events)) return Promise.resolve(events);
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(events)) return;
          finish();
          resolve(events);
        };
        const finish = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`Subscription did not deliver the expected events within ${timeoutMs} ms (got ${events.length})`));
        }, timeoutMs);
        listeners.add(check);
        subscription.done.then(
          () => undefined,
          (error: unknown) => {
            finish();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
  };
};

/** Drains an async iterable into an array. */
export const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
};
