import type { Kafka, Producer } from 'kafkajs';
import type { ChangeMessage, ChangeStream, ChangeStreamHandlers, ChangeSubscription } from './changeStream.js';
import { silentLogger, type ChangeStreamLogger } from './changeStreamLogger.js';
import { encodeChangeMessage } from './kafka/changeMessageCodec.js';
import { ensureTopic } from './kafka/ensureTopic.js';
import { retryingOnce } from './kafka/retryingOnce.js';
import { subscribeToTopic } from './kafka/topicSubscription.js';

export interface KafkaChangeStreamOptions {
  /** The topic of projected changes; created when missing. */
  topic: string;
  /** Partitions of a topic this adapter creates (default 6). */
  partitions?: number;
  /** Every subscription is its own consumer group: `${groupIdPrefix}-${uuid}` (default `pubstream-changes`). */
  groupIdPrefix?: string;
  /** Idempotent producer (default true): retries never duplicate or reorder a partition's messages. */
  idempotent?: boolean;
  /** How long subscribe() waits for its consumer to join its group (default 30 s). */
  joinTimeoutMs?: number;
  logger?: ChangeStreamLogger;
}

/**
 * The distributed profile's change stream on a Kafka topic (kafkajs). The projector publishes one
 * message per change (key = the entity, so one entity's changes keep their order; value = JSON;
 * acks from all in-sync replicas). Every subscriber reads every partition from the offsets that were
 * the topic's end when `subscribe()` was called, in a consumer group of its own: a shared group would
 * silently give each API node only part of the changes.
 */
export const createKafkaChangeStream = (kafka: Kafka, options: KafkaChangeStreamOptions): ChangeStream => {
  const { topic } = options;
  const subscriptionOptions = {
    topic,
    logger: options.logger ?? silentLogger,
    groupIdPrefix: options.groupIdPrefix ?? 'pubstream-changes',
    joinTimeoutMs: options.joinTimeoutMs ?? 30_000,
  };
  const admin = kafka.admin();
  const subscriptions = new Set<ChangeSubscription>();
  let producer: Producer | undefined;
  let closed = false;
  const adminReady = retryingOnce(async () => {
    await ensureTopic(admin, topic, options.partitions ?? 6);
    return admin;
  });
  const producerReady = retryingOnce(async () => {
    await adminReady.get();
    const idempotent = options.idempotent ?? true;
    producer = kafka.producer({ idempotent, maxInFlightRequests: idempotent ? 1 : undefined, allowAutoTopicCreation: false });
    await producer.connect();
    return producer;
  });
  const assertOpen = () => {
    if (closed) throw new Error('change stream is closed');
  };

  return {
    async publish(messages: readonly ChangeMessage[]): Promise<void> {
      assertOpen();
      if (messages.length === 0) return;
      const ready = await producerReady.get();
      await ready.send({ topic, acks: -1, messages: messages.map(encodeChangeMessage) });
    },

    async subscribe(handlers: ChangeStreamHandlers): Promise<ChangeSubscription> {
      assertOpen();
      await adminReady.get();
      const subscription = await subscribeToTopic(kafka, admin, subscriptionOptions, handlers);
      const tracked: ChangeSubscription = {
        problem: () => subscription.problem?.() ?? null,
        close: async () => {
          subscriptions.delete(tracked);
          await subscription.close();
        },
      };
      subscriptions.add(tracked);
      return tracked;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...subscriptions].map((subscription) => subscription.close()));
      const startedProducer = producerReady.started;
      if (startedProducer) await startedProducer.then((p) => p.disconnect()).catch(() => {});
      else await producer?.disconnect();
      if (adminReady.started) await admin.disconnect();
    },
  };
};
