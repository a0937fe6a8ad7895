import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { createSqliteEventStore, openSqliteDatabase, type EventStore } from '@pubstream/event-store';
import { exportEvents, type ExportedEvent } from '@pubstream/projector';
import { describeWithBackend } from '@pubstream/testing';
import { publishEventsToKafka } from './exportToKafka.js';

describeWithBackend('kafka', 'events export --to-kafka', (brokers) => {
  const kafka = new Kafka({ clientId: 'export-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  let producer: Producer;
  let eventStore: EventStore;

  beforeAll(async () => {
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    eventStore = createSqliteEventStore(openSqliteDatabase(':memory:'));
    await eventStore.appendToStream('collection-news', [{ type: 'CollectionCreated', data: { slug: 'news', name: 'News', sortableFields: [] }, metadata: {} }], { expectedRevision: 'any' });
    // Three items, interleaved, several events each.
    for (let round = 0; round < 4; round++) {
      for (const id of ['a', 'b', 'c']) {
        const type = round === 0 ? 'ItemCreated' : 'ItemUpdated';
        await eventStore.appendToStream(`item-${id}`, [{ type, data: { dataId: id, collection: 'news', data: { round } }, metadata: {} }], { expectedRevision: 'any' });
      }
    }
  }, 60_000);

  afterAll(async () => {
    await producer?.disconnect();
    await eventStore?.close();
  });

  it('publishes the selected range keyed by entity; each entity keeps its order; a consumer reads the positions', async () => {
    const topic = `export-${randomUUID()}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
    await admin.disconnect();

    // Positions after the collection up to the third round: the items' events of rounds 0-2.
    const all: ExportedEvent[] = [];
    for await (const event of exportEvents({ eventStore })) all.push(event);
    const from = all[0]!.position;
    const to = all[9]!.position;
    const published = await publishEventsToKafka(producer, topic, exportEvents({ eventStore, from, to }), 4);
    expect(published).toBe(9);

    const consumer = kafka.consumer({ groupId: `export-test-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: { key: string; partition: number; event: ExportedEvent }[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${received.length} of 9 messages arrived`)), 30_000);
      void consumer.run({
        eachMessage: async ({ message, partition }) => {
          received.push({ key: message.key?.toString() ?? '', partition, event: JSON.parse(message.value?.toString() ?? 'null') as ExportedEvent });
          if (received.length === 9) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();

    expect(received.map((r) => r.event.position).sort((a, b) => a - b)).toEqual(all.slice(1, 10).map((e) => e.position));
    for (const id of ['a', 'b', 'c']) {
      const mine = received.filter((r) => r.key === `item-${id}`);
      expect(mine.map((r) => r.event.type)).toEqual(['ItemCreated', 'ItemUpdated', 'ItemUpdated']);
      // One partition per entity, in log order.
      expect(new Set(mine.map((r) => r.partition)).size).toBe(1);
      expect(mine.map((r) => r.event.position)).toEqual([...mine.map((r) => r.event.position)].sort((a, b) => a - b));
      expect(mine.every((r) => r.event.streamName === `item-${id}`)).toBe(true);
    }
  }, 60_000);
});
