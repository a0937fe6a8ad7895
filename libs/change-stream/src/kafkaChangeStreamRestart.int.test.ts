import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { startLocalKafka, type LocalKafka } from '@pubstream/testing';
import { afterAll, expect, it } from 'vitest';
import type { ChangeMessage } from './changeStream.js';
import { createKafkaChangeStream } from './kafkaChangeStream.js';

// A broker of its own (killed and restarted), so the shared one stays untouched.
let kafka: LocalKafka | undefined;
afterAll(async () => {
  await kafka?.stop();
});

it('keeps delivering after the broker is killed and restarted', { timeout: 120_000 }, async (ctx) => {
  try {
    kafka = await startLocalKafka();
  } catch (error) {
    console.log(`[skip] Kafka restart test: no local broker (${error instanceof Error ? error.message.split('\n')[0] : error})`);
    ctx.skip();
    return;
  }
  const client = new Kafka({ clientId: 'restart-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING, retry: { retries: 20, maxRetryTime: 2_000 } });
  const stream = createKafkaChangeStream(client, { topic: `changes-${randomUUID()}` });
  const received: ChangeMessage[] = [];
  const gaps: string[] = [];
  try {
    await stream.subscribe({ onMessages: (batch) => void received.push(...batch), onGap: (reason) => void gaps.push(reason) });
    await stream.publish([change('before', 1)]);
    await waitFor(() => received.some((m) => m.kind === 'item' && m.dataId === 'before'));

    await kafka.kill();
    await kafka.restart();
    await stream.publish([change('after', 2)]);
    // The topic is durable: the consumer resumes from its position (reporting a gap if it had to rejoin).
    await waitFor(() => received.some((m) => m.kind === 'item' && m.dataId === 'after'));
    expect(received.map((m) => (m.kind === 'item' ? m.dataId : m.kind))).toEqual(['before', 'after']);
    console.log(`[kafka restart] gaps reported: ${gaps.length === 0 ? 'none' : gaps.join('; ')}`);
  } finally {
    await stream.close();
  }
});

const change = (dataId: string, version: number): ChangeMessage => ({ kind: 'item', action: 'update', dataId, collectionId: 'c', version, position: version, data: {} });

const waitFor = async (condition: () => boolean, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
