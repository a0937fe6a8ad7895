import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { createClient, createCluster } from 'redis';
import { describe, expect, it } from 'vitest';
import { describeWithBackend } from './backends.js';

// The global setup's promise: every backend it hands out answers like the real thing.

describeWithBackend('redis', 'global setup: Redis', (url) => {
  it('accepts writes and reads them back', async () => {
    const client = createClient({ url });
    await client.connect();
    try {
      const key = `testing:${randomUUID()}`;
      await client.set(key, 'v');
      expect(await client.get(key)).toBe('v');
      await client.del(key);
    } finally {
      client.destroy();
    }
  });
});

describeWithBackend('redisCluster', 'global setup: Redis Cluster', (urls) => {
  it('is a healthy cluster of three masters that serves keys in every slot range', async () => {
    const cluster = createCluster({ rootNodes: urls.split(',').map((url) => ({ url })) });
    await cluster.connect();
    try {
      expect(cluster.masters).toHaveLength(3);
      const keys = Array.from({ length: 30 }, (_, i) => `testing:${randomUUID()}:${i}`);
      for (const key of keys) await cluster.set(key, key);
      for (const key of keys) expect(await cluster.get(key)).toBe(key);
      const info = await cluster.sendCommand(undefined, true, ['CLUSTER', 'INFO']);
      expect(String(info)).toContain('cluster_state:ok');
      // Each master owns part of the slots: 30 random keys land on all three.
      for (const url of urls.split(',')) {
        const node = createClient({ url });
        await node.connect();
        try {
          let owned = 0;
          for (const key of keys) owned += await node.exists(key).catch(() => 0); // MOVED: another master's key
          expect(owned).toBeGreaterThan(0);
        } finally {
          node.destroy();
        }
      }
    } finally {
      cluster.destroy();
    }
  });
});

describeWithBackend('kafka', 'global setup: Kafka', (brokers) => {
  it('is a broker that creates topics and round-trips a message', async () => {
    const kafka = new Kafka({ clientId: 'testing', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: `testing-${randomUUID()}` });
    const topic = `testing-${randomUUID()}`;
    try {
      await admin.connect();
      expect((await admin.describeCluster()).brokers).toHaveLength(1);
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, messages: [{ key: 'k', value: 'hello' }] });
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      const received = await new Promise<string>((resolve) => {
        void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) });
      });
      expect(received).toBe('hello');
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  });
});

describe('global setup: skipped backends', () => {
  it('always name a reason', async () => {
    const { inject } = await import('vitest');
    const backends = inject('backends');
    for (const name of ['redis', 'redisCluster', 'kafka', 'esdb'] as const) {
      expect(backends[name] !== undefined || (backends.skipped[name] ?? '').length > 0).toBe(true);
    }
  });
});
