import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import type { ExportedEvent } from '@pubstream/projector';
import { describeWithBackend } from '@pubstream/testing';
import { runCli } from './testing/runCli.js';

// `pubstream events export --to-kafka` as a user runs it: the CLI process, a SQLite log file and
// the real broker (the publishing function alone: exportToKafka.int.test.ts).
describeWithBackend('kafka', 'pubstream events export --to-kafka (CLI)', (brokers) => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-export-kafka-'));
  const file = join(dir, 'events.db');
  const kafka = new Kafka({ clientId: 'export-cli-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });

  beforeAll(async () => {
    const store = createSqliteEventStore(openSqliteDatabase(file));
    await store.appendToStream('collection-news', [{ type: 'CollectionCreated', data: { slug: 'news', name: 'News', sortableFields: [] }, metadata: {} }], { expectedRevision: 'any' });
    for (const id of ['a', 'b', 'a']) await store.appendToStream(`item-${id}`, [{ type: 'ItemUpdated', data: { dataId: id, collection: 'news', data: {} }, metadata: {} }], { expectedRevision: 'any' });
    await store.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('publishes the chosen range keyed by entity, reports the count, and a consumer reads it back', async () => {
    const topic = `export-cli-${randomUUID()}`;
    const run = await runCli(['events', 'export', '--from', '1', '--to-kafka', topic], { EVENT_STORE_URL: `sqlite:${file}`, KAFKA_BROKERS: brokers });
    expect(run.stderr).toBe('exported 3 events\n');
    expect(run.code).toBe(0);

    const consumer = kafka.consumer({ groupId: `export-cli-${randomUUID()}` });
    await consumer.connect();
    const received: { key: string; event: ExportedEvent }[] = [];
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of 3 messages arrived`)), 30_000);
        void consumer.run({
          eachMessage: async ({ message }) => {
            received.push({ key: message.key?.toString() ?? '', event: JSON.parse(message.value?.toString() ?? 'null') as ExportedEvent });
            if (received.length === 3) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      });
    } finally {
      await consumer.disconnect();
    }
    const sorted = received.sort((x, y) => x.event.position - y.event.position);
    expect(sorted.map((m) => [m.key, m.event.position, m.event.type])).toEqual([
      ['item-a', 2, 'ItemUpdated'],
      ['item-b', 3, 'ItemUpdated'],
      ['item-a', 4, 'ItemUpdated'],
    ]);
  }, 90_000);

  it('without KAFKA_BROKERS: one line saying what is missing, exit 2 (usage)', async () => {
    const run = await runCli(['events', 'export', '--to-kafka', 'anything'], { EVENT_STORE_URL: `sqlite:${file}` });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('pubstream: --to-kafka needs KAFKA_BROKERS (the brokers to publish to)\n');
  }, 60_000);
});
