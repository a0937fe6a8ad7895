import type { ChangeSignal } from './changeSignal.js';
import type { EventSubscription, RecordedEvent } from './eventStore.js';
import { runningSubscription, type Deliver } from './runningSubscription.js';

export interface PollingSubscriptionOptions {
  readonly after: number;
  readonly batchSize: number;
  /** Fallback wake-up: a read after this long without a signal, in case a change went unseen. */
  readonly pollIntervalMs: number;
  /** Up to `limit` events with a position greater than `after`, in position order. */
  readonly readBatch: (after: number, limit: number) => RecordedEvent[] | Promise<RecordedEvent[]>;
  readonly changes: ChangeSignal;
}

const noop = (): void => undefined;

/**
 * A catch-up subscription built on "read the next batch after my cursor": history in batches, then
 * live events as soon as `changes` signals (or the poll timer fires). The handler is awaited before
 * the next read, so deliveries never overlap. close() stops after the current batch.
 */
export const startPollingSubscription = (
  options: PollingSubscriptionOptions,
  handler: (events: RecordedEvent[]) => Promise<void>,
): EventSubscription => {
  let closed = false;
  let signalStop = noop;
  const stop = new Promise<void>((resolve) => {
    signalStop = resolve;
  });

  const run = async (deliver: Deliver): Promise<void> => {
    let cursor = options.after;
    while (!closed) {
      const seen = options.changes.version;
      const batch = await options.readBatch(cursor, options.batchSize);
      if (closed) return;
      const last = batch.at(-1);
      if (!last) {
        await options.changes.waitForChange(seen, options.pollIntervalMs, stop);
        continue;
      }
      await deliver(batch);
      cursor = last.position;
    }
  };

  return runningSubscription(handler, run, () => {
    closed = true;
    signalStop();
  });
};
