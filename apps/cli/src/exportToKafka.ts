import { entityKeyOf, type ExportedEvent } from '@pubstream/projector';
import type { Producer } from 'kafkajs';

/**
 * `pubstream events export --to-kafka TOPIC`: publishes exported events to a Kafka topic, keyed by
 * entity (its stream), so one entity's events land on one partition in log order; the value is the
 * same JSON as an NDJSON export line (with the position). Sends in batches, waiting for every
 * in-sync replica (acks -1). Returns how many events were published.
 */
export const publishEventsToKafka = async (
  producer: Producer,
  topic: string,
  events: AsyncIterable<ExportedEvent> | Iterable<ExportedEvent>,
  batchSize = 500,
): Promise<number> => {
  let count = 0;
  let batch: { key: string; value: string }[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await producer.send({ topic, acks: -1, messages: batch });
    batch = [];
  };
  for await (const event of events) {
    batch.push({ key: entityKeyOf(event), value: JSON.stringify(event) });
    count++;
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return count;
};
