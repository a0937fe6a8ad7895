import { PassThrough } from 'node:stream';
import { START, UnavailableError, type AllStreamResolvedEvent, type EventStoreDBClient, type ReadPosition } from '@eventstore/db-client';
import type { ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../eventStore.js';
import { startEsdbSubscription } from './esdbSubscription.js';

const resolved = (streamId: string, commit: number, type = 'ItemUpdated'): AllStreamResolvedEvent =>
  ({
    event: {
      streamId,
      id: `00000000-0000-4000-8000-${String(commit).padStart(12, '0')}`,
      isJson: true,
      revision: 0n,
      type,
      created: new Date(0),
      data: { commit },
      metadata: {},
      position: { commit: BigInt(commit), prepare: BigInt(commit) },
    },
  }) as unknown as AllStreamResolvedEvent;

const unavailable = (): UnavailableError =>
  new UnavailableError(Object.assign(new Error('gone'), { code: 14, details: 'gone', metadata: { get: () => [] } }) as unknown as ServiceError);

/** A fake client: each subscribeToAll call gets the next scripted stream; records where it started. */
const fakeClient = (scripts: Array<(stream: PassThrough) => void>, { unsubscribeEndsStream = true } = {}) => {
  const starts: ReadPosition[] = [];
  const client = {
    subscribeToAll(options?: { fromPosition?: ReadPosition }) {
      starts.push(options?.fromPosition ?? START);
      const stream = Object.assign(new PassThrough({ objectMode: true }), {
        unsubscribe: async () => {
          if (unsubscribeEndsStream) stream.end();
        },
      });
      const script = scripts.shift();
      setImmediate(() => script?.(stream));
      return stream;
    },
  } as unknown as Pick<EventStoreDBClient, 'subscribeToAll'>;
  return { client, starts };
};

const retry = { initialDelayMs: 1, maxDelayMs: 4 };

describe('EventStoreDB subscription (fake client)', () => {
  it('delivers our events in batches and skips system and foreign ones', async () => {
    const { client } = fakeClient([
      (s) => {
        s.write(resolved('item-a', 10));
        s.write(resolved('$stats', 11, '$statsCollected'));
        s.write(resolved('orders-1', 12));
        s.write(resolved('collection-x', 13));
      },
    ]);
    const received: RecordedEvent[] = [];
    const sizes: number[] = [];
    const subscription = startEsdbSubscription(client, { after: 0, batchSize: 1, retry }, async (events) => {
      sizes.push(events.length);
      received.push(...events);
      if (received.length === 2) await subscription.close();
    });
    await subscription.done;
    expect(received.map((e) => [e.streamName, e.position])).toEqual([
      ['item-a', 10],
      ['collection-x', 13],
    ]);
    expect(sizes.every((n) => n === 1)).toBe(true);
  });

  it('resubscribes after a transient error from the last delivered position, with no gap and no repeat', async () => {
    const { client, starts } = fakeClient([
      (s) => {
        s.write(resolved('item-a', 10));
        s.write(resolved('item-a', 20));
        setImmediate(() => s.destroy(unavailable()));
      },
      (s) => {
        s.write(resolved('item-a', 30));
      },
    ]);
    const transient: unknown[] = [];
    const received: number[] = [];
    const subscription = startEsdbSubscription(
      client,
      { after: 5, batchSize: 10, retry, onTransientError: (error) => transient.push(error) },
      async (events) => {
        received.push(...events.map((e) => e.position));
        if (received.includes(30)) await subscription.close();
      },
    );
    await subscription.done;
    expect(received).toEqual([10, 20, 30]);
    expect(starts).toEqual([
      { commit: 5n, prepare: 5n },
      { commit: 20n, prepare: 20n },
    ]);
    expect(transient[0]).toBeInstanceOf(UnavailableError);
  });

  it('does not deliver the event at the resume position again if the server repeats it', async () => {
    const { client } = fakeClient([(s) => s.write(resolved('item-a', 7)) && s.write(resolved('item-a', 8))]);
    const received: number[] = [];
    const subscription = startEsdbSubscription(client, { after: 7, batchSize: 10, retry }, async (events) => {
      received.push(...events.map((e) => e.position));
      await subscription.close();
    });
    await subscription.done;
    expect(received).toEqual([8]);
  });

  it('stops and rejects done when the handler throws', async () => {
    const { client, starts } = fakeClient([(s) => s.write(resolved('item-a', 1))]);
    const failure = new Error('projection bug');
    const subscription = startEsdbSubscription(client, { after: 0, batchSize: 10, retry }, async () => {
      throw failure;
    });
    await expect(subscription.done).rejects.toBe(failure);
    expect(starts).toHaveLength(1);
  });

  it('rejects done on an error that is not transient', async () => {
    const { client } = fakeClient([(s) => s.destroy(new TypeError('malformed response'))]);
    const subscription = startEsdbSubscription(client, { after: 0, batchSize: 10, retry }, async () => undefined);
    await expect(subscription.done).rejects.toThrow('malformed response');
  });

  it('close() ends a subscription waiting for live events, even if cancelling leaves the stream open', async () => {
    const { client } = fakeClient([() => undefined], { unsubscribeEndsStream: false });
    const subscription = startEsdbSubscription(client, { after: 0, batchSize: 10, retry }, async () => undefined);
    await subscription.close();
    await expect(subscription.done).resolves.toBeUndefined();
  });
});
