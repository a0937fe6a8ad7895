import { describe, expect, it } from 'vitest';
import type { EventSubscription, RecordedEvent } from './eventStore.js';
import { runningSubscription, type Deliver } from './runningSubscription.js';

/** A loop that delivers one empty batch per `next()` until stopped. */
const steppedLoop = (handler: (events: RecordedEvent[]) => Promise<void>) => {
  let stopped = false;
  let step: () => void = () => undefined;
  const next = (): void => step();
  const run = async (deliver: Deliver): Promise<void> => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        step = resolve;
      });
      if (stopped) return;
      await deliver([]);
    }
  };
  const subscription = runningSubscription(handler, run, () => {
    stopped = true;
    step();
  });
  return { subscription, next };
};

describe('runningSubscription', () => {
  it('close() from outside waits for the handler that is running', async () => {
    let release: () => void = () => undefined;
    let handlerFinished = false;
    const { subscription, next } = steppedLoop(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      handlerFinished = true;
    });
    next();
    await new Promise((resolve) => setImmediate(resolve));
    let closed = false;
    const closing = subscription.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(handlerFinished).toBe(true);
    await expect(subscription.done).resolves.toBeUndefined();
  });

  it('close() awaited from the handler resolves (no deadlock) and the loop ends', async () => {
    let calls = 0;
    const self: { subscription?: EventSubscription } = {};
    const { subscription, next } = steppedLoop(async () => {
      calls += 1;
      await self.subscription?.close();
    });
    self.subscription = subscription;
    next();
    await expect(subscription.done).resolves.toBeUndefined();
    expect(calls).toBe(1);
  });

  it('close() from the handler after an await, not awaited, stops the loop once the handler returns', async () => {
    const self: { subscription?: EventSubscription } = {};
    const { subscription, next } = steppedLoop(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      void self.subscription?.close();
    });
    self.subscription = subscription;
    next();
    await expect(subscription.done).resolves.toBeUndefined();
  });
});
