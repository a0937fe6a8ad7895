import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../eventStore.js';
import { event, uniqueStream, type ContractContext } from './contractContext.js';
import { probeSubscription } from './subscriptionProbe.js';

const ids = (events: readonly RecordedEvent[]): string[] => events.map((e) => e.eventId);

/** Catch-up subscriptions to all: history, then live, each event once, in order. */
export const describeSubscriptionContract = ({ store, options }: ContractContext): void => {
  const timeout = options.deliveryTimeoutMs;
  const appendOne = async (stream: string, type: string): Promise<string> => {
    const appended = event(type);
    await store().appendToStream(stream, [appended], { expectedRevision: 'any' });
    return appended.eventId ?? '';
  };

  describe('subscribeToAll', () => {
    it('from position 0 delivers every event exactly once, in order, then live ones', async () => {
      const streams = [uniqueStream('a'), uniqueStream('b')];
      const expected: string[] = [];
      for (let i = 0; i < 5; i += 1) expected.push(await appendOne(streams[i % 2] ?? '', `History${i}`));
      const probe = probeSubscription(store(), { after: 0, keep: (e) => streams.includes(e.streamName) });
      await probe.until((events) => events.length >= 5, timeout);
      for (let i = 0; i < 3; i += 1) expected.push(await appendOne(streams[i % 2] ?? '', `Live${i}`));
      // A last event proves nothing else was still on its way: everything before it has arrived.
      const sentinel = await appendOne(streams[0] ?? '', 'Sentinel');
      expected.push(sentinel);
      const received = await probe.until((events) => events.some((e) => e.eventId === sentinel), timeout);
      await probe.subscription.close();
      expect(ids(received)).toEqual(expected);
      for (let i = 1; i < received.length; i += 1) expect(received[i]?.position).toBeGreaterThan(received[i - 1]?.position ?? 0);
    });

    it('from a middle position delivers only what comes after it', async () => {
      const stream = uniqueStream();
      const history = [];
      for (let i = 0; i < 4; i += 1) history.push(await appendOne(stream, `E${i}`));
      const [, second] = await store().readStream(stream);
      const probe = probeSubscription(store(), { after: second?.position ?? 0, keep: (e) => e.streamName === stream });
      const live = await appendOne(stream, 'E4');
      const received = await probe.until((events) => events.some((e) => e.eventId === live), timeout);
      await probe.subscription.close();
      expect(ids(received)).toEqual([history[2], history[3], live]);
    });

    it('delivers in batches no larger than batchSize and waits for the handler', async () => {
      const stream = uniqueStream();
      const head = await store().headPosition();
      for (let i = 0; i < 7; i += 1) await appendOne(stream, `E${i}`);
      let running = 0;
      let overlapped = false;
      const received: RecordedEvent[] = [];
      const sizes: number[] = [];
      const subscription = store().subscribeToAll({ after: head, batchSize: 3 }, async (batch) => {
        running += 1;
        overlapped ||= running > 1;
        sizes.push(batch.length);
        await new Promise((resolve) => setImmediate(resolve));
        received.push(...batch.filter((e) => e.streamName === stream));
        running -= 1;
      });
      await waitUntil(() => received.length >= 7, timeout);
      await subscription.close();
      expect(received.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'E5', 'E6']);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
      expect(overlapped).toBe(false);
    });

    it('stops when the handler throws: done rejects with that error', async () => {
      const stream = uniqueStream();
      const head = await store().headPosition();
      await appendOne(stream, 'Boom');
      const failure = new Error('handler failed');
      let calls = 0;
      const subscription = store().subscribeToAll({ after: head }, async (batch) => {
        if (batch.some((e) => e.streamName === stream)) {
          calls += 1;
          throw failure;
        }
      });
      await expect(subscription.done).rejects.toBe(failure);
      await appendOne(stream, 'After');
      await subscription.close();
      expect(calls).toBe(1);
    });

    it('close() ends the subscription and done resolves, also when called from the handler', async () => {
      const stream = uniqueStream();
      const head = await store().headPosition();
      const idle = store().subscribeToAll({ after: head }, async () => undefined);
      await idle.close();
      await expect(idle.done).resolves.toBeUndefined();

      await appendOne(stream, 'Stop');
      const selfClosing = store().subscribeToAll({ after: head }, async (batch) => {
        if (batch.some((e) => e.streamName === stream)) await selfClosing.close();
      });
      await expect(selfClosing.done).resolves.toBeUndefined();
    });
  });
};

const waitUntil = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
