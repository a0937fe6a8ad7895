import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { startLocalKafka, type LocalKafka } from '@pubstream/testing';
import { afterAll, expect, it } from 'vitest';
import type { ChangeSubscription } from './changeStream.js';
import { createKafkaChangeStream } from './kafkaChangeStream.js';

// Issue 23 (Kafka down at an API node): a subscription says when it hears nothing from the broker,
// for /readyz to report the node degraded. A broker of its own, killed and restarted.
let kafka: LocalKafka | undefined;
afterAll(async () => {
  await kafka?.stop();
});

const until = async <T>(value: () => T | null, timeoutMs: number): Promise<{ value: T; afterMs: number }> => {
  const started = performance.now();
  for (;;) {
    const current = value();
    if (current !== null) return { value: current, afterMs: performance.now() - started };
    if (performance.now() - started > timeoutMs) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

it('reports a problem while the broker is gone and none once the consumer is back', { timeout: 120_000 }, async (ctx) => {
  try {
    kafka = await startLocalKafka();
  } catch (error) {
    console.log(`[skip] Kafka health test: no local broker (${error instanceof Error ? error.message.split('\n')[0] : error})`);
    ctx.skip();
    return;
  }
  const client = new Kafka({ clientId: 'health-test', brokers: [kafka.brokers], logLevel: logLevel.NOTHING, retry: { retries: 20, maxRetryTime: 2_000 } });
  const stream = createKafkaChangeStream(client, { topic: `changes-${randomUUID()}` });
  let subscription: ChangeSubscription | undefined;
  try {
    subscription = await stream.subscribe({ onMessages: () => {} });
    expect(subscription.problem?.()).toBeNull();

    await kafka.kill();
    const down = await until(() => subscription!.problem?.() ?? null, 20_000);
    expect(down.value).toMatch(/^no answer from Kafka for \d+\.\d s$/);
    await kafka.restart();
    const back = await until(() => (subscription!.problem?.() === null ? true : null), 60_000);
    console.log(`[kafka health] problem reported ${Math.round(down.afterMs)} ms after the broker was killed ("${down.value}"), cleared ${Math.round(back.afterMs)} ms after its restart`);
  } finally {
    await stream.close();
  }
});
