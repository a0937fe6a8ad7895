import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { afterEach, expect, it } from 'vitest';
import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { startKafkaContainer, startRedisClusterContainer, startRedisContainer } from './containerBackends.js';
import { describeWithContainers } from './containerSupport.js';
import type { StartedBackend } from './startedBackend.js';

// Each kind of backend the global setup can start in a container, from the images
// infra/images/build.sh builds, reached from this process the way the suites reach it.
// Regression (issue 19): the Redis container started, then connectRedis() never resolved: a
// redis-server without a config file runs in protected mode and answers clients outside the
// container with -DENIED, which connectRedis retries forever (fixed in infra/images/redis).

const bounded = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not resolve within ${ms} ms`)), ms).unref())]);

describeWithContainers('container backends from the local images', ['redis', 'kafka'], (support) => {
  const running: StartedBackend[] = [];
  let client: RedisReadModelClient | undefined;
  afterEach(async () => {
    await client?.close().catch(() => {});
    client = undefined;
    for (const backend of running.splice(0)) await backend.stop();
  });

  it('serves connectRedis from the host: a Redis container', async () => {
    const backend = await startRedisContainer(support.images.redis, support.labels);
    running.push(backend);
    expect(backend.source).toMatch(/container [0-9a-f]{12}/);
    client = await bounded(connectRedis(backend.url, () => {}), 15_000, `connectRedis(${backend.url})`);
    const key = `containers:${randomUUID()}`;
    await client.set(key, 'v');
    expect(await client.get(key)).toBe('v');
  }, 60_000);

  it('serves connectRedis from the host: a three-master Redis Cluster container', async () => {
    const backend = await startRedisClusterContainer(support.images.redis, support.labels);
    running.push(backend);
    expect(backend.url.split(',')).toHaveLength(3);
    client = await bounded(connectRedis(backend.url, () => {}), 15_000, `connectRedis(${backend.url})`);
    const keys = Array.from({ length: 12 }, (_, i) => `containers:${randomUUID()}:${i}`);
    for (const key of keys) await client.set(key, key);
    for (const key of keys) expect(await client.get(key)).toBe(key);
  }, 90_000);

  it('round-trips a message from the host: a Kafka container', async () => {
    const backend = await startKafkaContainer(support.images.kafka, support.labels);
    running.push(backend);
    const kafka = new Kafka({ clientId: 'containers-test', brokers: [backend.url], logLevel: logLevel.NOTHING });
    const topic = `containers-${randomUUID()}`;
    const admin = kafka.admin();
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: `containers-${randomUUID()}` });
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, messages: [{ key: 'k', value: 'hello' }] });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const received = new Promise<string>((resolve) => void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) }));
      expect(await bounded(received, 30_000, 'the consumer')).toBe('hello');
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
    }
  }, 120_000);
});
