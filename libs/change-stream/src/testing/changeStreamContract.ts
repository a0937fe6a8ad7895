import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeMessage, ChangeStream, ChangeSubscription } from '../changeStream.js';

export interface ChangeStreamContractOptions {
  /** How long a published message may take to arrive (default 15 s). */
  deliveryTimeoutMs?: number;
}

/**
 * The change-stream port's contract, run against every adapter. `factory` returns a fresh,
 * isolated stream per test (for Kafka: a new topic).
 */
export const testChangeStreamContract = (
  name: string,
  factory: () => ChangeStream | Promise<ChangeStream>,
  options: ChangeStreamContractOptions = {},
): void => {
  const timeoutMs = options.deliveryTimeoutMs ?? 15_000;

  describe(`change stream contract: ${name}`, () => {
    const opened: ChangeStream[] = [];
    const open = async () => {
      const stream = await factory();
      opened.push(stream);
      return stream;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((stream) => stream.close()));
    });

    it('delivers every published message to a subscriber, unchanged and in order per entity', async () => {
      const stream = await open();
      const received = collector();
      await stream.subscribe(received.handlers);
      const published: ChangeMessage[] = [];
      // Five entities of every kind, three versions each, interleaved over several publishes.
      for (let version = 1; version <= 3; version++) {
        const batch: ChangeMessage[] = [];
        for (let i = 0; i < 5; i++) {
          batch.push(itemChange(`item-${i}`, version), { kind: 'collection', action: 'update', slug: `col-${i}`, version, position: version * 100 + i });
        }
        batch.push({ kind: 'key', action: version === 3 ? 'delete' : 'update', keyId: 'k1', keyHash: 'h', version, position: version * 100 + 99 });
        batch.push({ kind: 'plan', action: 'update', version, position: version * 100 + 98 });
        await stream.publish(batch);
        published.push(...batch);
      }
      await waitFor(() => distinct(received.messages).length >= published.length, timeoutMs);
      expect(new Set(received.messages.map((m) => JSON.stringify(m)))).toEqual(new Set(published.map((m) => JSON.stringify(m))));
      // At-least-once allows a repeat, never a step back within one entity.
      for (const [entity, versions] of versionsByEntity(received.messages)) {
        expect({ entity, ordered: versions.every((v, i) => i === 0 || v >= (versions[i - 1] ?? 0)) }).toEqual({ entity, ordered: true });
      }
    });

    it('delivers messages of every entity in publish order: positions never go back (docs/kafka.md, one partition)', async () => {
      const stream = await open();
      const received = collector();
      await stream.subscribe(received.handlers);
      const published: ChangeMessage[] = [];
      for (let batch = 0; batch < 3; batch++) {
        const messages = Array.from({ length: 40 }, (_, i): ChangeMessage => ({ ...itemChange(`ordered-${i}`, batch + 1), position: batch * 40 + i + 1 }));
        await stream.publish(messages);
        published.push(...messages);
      }
      await waitFor(() => distinct(received.messages).length >= published.length, timeoutMs);
      // At-least-once may repeat a message; the first arrivals keep the publish order.
      const firstArrivals = [...new Set(received.messages.map((m) => m.position))];
      expect(firstArrivals).toEqual(published.map((m) => m.position));
    });

    it('gives every subscriber every message: subscribers never share the stream', async () => {
      const stream = await open();
      const first = collector();
      const second = collector();
      await stream.subscribe(first.handlers);
      await stream.subscribe(second.handlers);
      const messages = Array.from({ length: 20 }, (_, i) => itemChange(`shared-${i}`, 1));
      await stream.publish(messages);
      await waitFor(() => distinct(first.messages).length >= 20 && distinct(second.messages).length >= 20, timeoutMs);
      expect(distinct(first.messages).sort()).toEqual(messages.map((m) => JSON.stringify(m)).sort());
      expect(distinct(second.messages).sort()).toEqual(messages.map((m) => JSON.stringify(m)).sort());
    });

    it('never loses a message published right after subscribe() resolves', async () => {
      const stream = await open();
      for (let round = 0; round < 3; round++) {
        const received = collector();
        await stream.subscribe(received.handlers);
        const message = itemChange(`race-${round}`, 1);
        await stream.publish([message]);
        await waitFor(() => received.messages.some((m) => m.kind === 'item' && m.dataId === `race-${round}`), timeoutMs);
      }
    });

    it('stops delivering to a closed subscription while others keep receiving', async () => {
      const stream = await open();
      const closedOne = collector();
      const open1 = collector();
      const subscription: ChangeSubscription = await stream.subscribe(closedOne.handlers);
      await stream.subscribe(open1.handlers);
      await stream.publish([itemChange('before-close', 1)]);
      await waitFor(() => closedOne.messages.length > 0 && open1.messages.length > 0, timeoutMs);
      await subscription.close();
      const countAtClose = closedOne.messages.length;
      await stream.publish([itemChange('after-close', 1)]);
      await waitFor(() => open1.messages.some((m) => m.kind === 'item' && m.dataId === 'after-close'), timeoutMs);
      expect(closedOne.messages).toHaveLength(countAtClose);
      expect(closedOne.messages.some((m) => m.kind === 'item' && m.dataId === 'after-close')).toBe(false);
    });

    it('refuses to publish once closed', async () => {
      const stream = await open();
      await stream.close();
      await expect(stream.publish([itemChange('late', 1)])).rejects.toThrow();
    });
  });
};

const itemChange = (dataId: string, version: number): ChangeMessage => ({
  kind: 'item',
  action: 'update',
  dataId,
  collectionId: 'col-0',
  version,
  position: version,
  data: { title: `${dataId} v${version}`, n: version, nested: { ok: true } },
});

const collector = () => {
  const messages: ChangeMessage[] = [];
  return { messages, handlers: { onMessages: (batch: readonly ChangeMessage[]) => void messages.push(...batch) } };
};

const distinct = (messages: readonly ChangeMessage[]): string[] => [...new Set(messages.map((m) => JSON.stringify(m)))];

const versionsByEntity = (messages: readonly ChangeMessage[]): Map<string, number[]> => {
  const map = new Map<string, number[]>();
  for (const m of messages) {
    const entity = m.kind === 'item' ? `item:${m.dataId}` : m.kind === 'collection' ? `collection:${m.slug}` : m.kind === 'key' ? `key:${m.keyId}` : 'plan';
    map.set(entity, [...(map.get(entity) ?? []), m.version]);
  }
  return map;
};

const waitFor = async (condition: () => boolean, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
