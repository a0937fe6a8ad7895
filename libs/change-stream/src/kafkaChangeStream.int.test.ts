import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { describeWithBackend } from '@pubstream/testing';
import { afterAll, expect, it } from 'vitest';
import { createKafkaChangeStream } from './kafkaChangeStream.js';
import { testChangeStreamContract } from './testing/index.js';

describeWithBackend('kafka', 'Kafka change stream', (brokers) => {
  const kafka = new Kafka({ clientId: 'change-stream-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const prefix = `contract-${randomUUID().slice(0, 8)}`;

  testChangeStreamContract('kafka', () => createKafkaChangeStream(kafka, { topic: `changes-${randomUUID()}`, partitions: 6, groupIdPrefix: prefix }), {
    deliveryTimeoutMs: 20_000,
  });

  const admin = kafka.admin();
  afterAll(async () => {
    await admin.disconnect();
  });

  it('creates the topic with the requested partitions and leaves no consumer group behind', async () => {
    const topic = `changes-${randomUUID()}`;
    const groupIdPrefix = `cleanup-${randomUUID().slice(0, 8)}`;
    const stream = createKafkaChangeStream(kafka, { topic, partitions: 4, groupIdPrefix });
    const subscription = await stream.subscribe({ onMessages: () => {} });
    await admin.connect();
    const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    expect(metadata?.partitions).toHaveLength(4);
    const groupsWhileOpen = (await admin.listGroups()).groups.filter((g) => g.groupId.startsWith(groupIdPrefix));
    expect(groupsWhileOpen).toHaveLength(1);
    await subscription.close();
    await stream.close();
    const groupsAfter = (await admin.listGroups()).groups.filter((g) => g.groupId.startsWith(groupIdPrefix));
    expect(groupsAfter).toHaveLength(0);
  });
});
