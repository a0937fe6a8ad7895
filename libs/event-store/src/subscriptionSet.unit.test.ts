import { describe, expect, it } from 'vitest';
import type { EventSubscription } from './eventStore.js';
import { createSubscriptionSet } from './subscriptionSet.js';

function fakeSubscription() {
  let end!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => ((end = resolve), (fail = reject)));
  done.catch(() => {});
  const subscription: EventSubscription & { closed: number } = {
    done,
    closed: 0,
    async close() {
      subscription.closed += 1;
      end();
    },
  };
  return { subscription, end, fail };
}

describe('createSubscriptionSet', () => {
  it('given tracked subscriptions, then closeAll closes each that is still live', async () => {
    const set = createSubscriptionSet();
    const a = fakeSubscription();
    const b = fakeSubscription();
    expect(set.track(a.subscription)).toBe(a.subscription);
    set.track(b.subscription);
    await set.closeAll();
    expect([a.subscription.closed, b.subscription.closed]).toEqual([1, 1]);
  });

  it('given a subscription that ended or failed, then it is forgotten', async () => {
    const set = createSubscriptionSet();
    const ended = fakeSubscription();
    const failed = fakeSubscription();
    set.track(ended.subscription);
    set.track(failed.subscription);
    ended.end();
    failed.fail(new Error('handler failed'));
    await Promise.allSettled([ended.subscription.done, failed.subscription.done]);
    await Promise.resolve();
    expect(set.size).toBe(0);
    await set.closeAll();
    expect([ended.subscription.closed, failed.subscription.closed]).toEqual([0, 0]);
  });
});
