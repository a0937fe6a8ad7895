import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, Kafka, Producer } from 'kafkajs';
import { changeKey, type ChangeMessage, type ChangeStream, type ChangeStreamHandlers, type ChangeSubscription } from './changeStream.js';
import { silentLogger, type ChangeStreamLogger } from './changeStreamLogger.js';

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
  const logger = options.logger ?? silentLogger;
  const groupIdPrefix = options.groupIdPrefix ?? 'pubstream-changes';
  const joinTimeoutMs = options.joinTimeoutMs ?? 30_000;
  const admin: Admin = kafka.admin();
  const subscriptions = new Set<ChangeSubscription>();
  let producer: Producer | undefined;
  let producerReady: Promise<Producer> | undefined;
  let adminReady: Promise<Admin> | undefined;
  let closed = false;

  const readyAdmin = (): Promise<Admin> => {
    adminReady ??= (async () => {
      await admin.connect();
      try {
        await admin.createTopics({ topics: [{ topic, numPartitions: options.partitions ?? 6 }], waitForLeaders: true });
      } catch (error) {
        // Another process created it at the same moment.
        if (!(error instanceof Error && /already exists/i.test(error.message))) throw error;
      }
      return admin;
    })().catch((error: unknown) => {
      adminReady = undefined;
      throw error;
    });
    return adminReady;
  };

  const readyProducer = (): Promise<Producer> => {
    producerReady ??= (async () => {
      await readyAdmin();
      const idempotent = options.idempotent ?? true;
      producer = kafka.producer({ idempotent, maxInFlightRequests: idempotent ? 1 : undefined, allowAutoTopicCreation: false });
      await producer.connect();
      return producer;
    })().catch((error: unknown) => {
      producerReady = undefined;
      throw error;
    });
    return producerReady;
  };

  const assertOpen = () => {
    if (closed) throw new Error('change stream is closed');
  };

  return {
    async publish(messages: readonly ChangeMessage[]): Promise<void> {
      assertOpen();
      if (messages.length === 0) return;
      const ready = await readyProducer();
      await ready.send({
        topic,
        acks: -1,
        messages: messages.map((message) => ({ key: changeKey(message), value: JSON.stringify(message) })),
      });
    },

    async subscribe(handlers: ChangeStreamHandlers): Promise<ChangeSubscription> {
      assertOpen();
      await readyAdmin();
      // Positions fixed BEFORE subscribe() resolves: whatever is published afterwards lies at or
      // beyond them, so it cannot be lost to a consumer that joins its group a moment later.
      const start = await retryRetriable(() => admin.fetchTopicOffsets(topic));
      const groupId = `${groupIdPrefix}-${randomUUID()}`;
      // Each group has exactly one member (this subscription): after a broker restart the coordinator
      // waits for the crashed member's session to expire before the rejoin completes, so keep it short
      // (the broker's minimum is 6 s) instead of kafkajs' 30 s default.
      const consumer: Consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 500, allowAutoTopicCreation: false, sessionTimeout: 6_000, rebalanceTimeout: 6_000, heartbeatInterval: 1_000 });
      let active = true;
      let joins = 0;
      let joined!: { resolve: () => void; reject: (error: unknown) => void };
      const firstJoin = new Promise<void>((resolve, reject) => (joined = { resolve, reject }));
      firstJoin.catch(() => {}); // awaited below; a crash before that must not count as unhandled
      consumer.on(consumer.events.GROUP_JOIN, () => {
        joins += 1;
        if (joins === 1) {
          // The group exists only now (a join can crash and be retried): position every partition.
          try {
            for (const { partition, offset } of start) consumer.seek({ topic, partition, offset });
            joined.resolve();
          } catch (error) {
            joined.reject(error);
          }
          return;
        }
        // A rejoin (after a rebalance, crash or reconnect) may have skipped messages.
        if (active) handlers.onGap?.('kafka consumer rejoined its group');
      });
      consumer.on(consumer.events.CRASH, (event) => {
        if (!active) return;
        logger.warn({ err: event.payload.error, groupId, restart: event.payload.restart }, 'change-stream consumer crashed');
        if (joins > 0) handlers.onGap?.(`kafka consumer crashed: ${event.payload.error.message}`);
        else if (!event.payload.restart) joined.reject(event.payload.error);
      });

      const deliver = (values: readonly (Buffer | null)[]) => {
        const parsed: ChangeMessage[] = [];
        for (const value of values) {
          if (!value) continue;
          try {
            parsed.push(JSON.parse(value.toString('utf8')) as ChangeMessage);
          } catch (error) {
            logger.warn({ err: error, topic }, 'change-stream message is not JSON; skipped');
          }
        }
        if (parsed.length > 0 && active) handlers.onMessages(parsed);
      };

      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: false });
        await consumer.run({
          eachBatch: async ({ batch }) => deliver(batch.messages.map((message) => message.value)),
        });
        // Resolves once the group is joined, the partitions assigned and their positions set.
        await withTimeout(firstJoin, joinTimeoutMs, `consumer group ${groupId} not joined within ${joinTimeoutMs} ms`);
      } catch (error) {
        active = false;
        await consumer.disconnect().catch(() => {});
        throw error;
      }

      const subscription: ChangeSubscription = {
        close: async () => {
          if (!active) return;
          active = false;
          subscriptions.delete(subscription);
          await consumer.disconnect();
          // The group was ephemeral; leaving it behind would only clutter the broker.
          await admin.deleteGroups([groupId]).catch((error: unknown) => logger.warn({ err: error, groupId }, 'could not delete consumer group'));
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...subscriptions].map((subscription) => subscription.close()));
      if (producerReady) await producerReady.then((p) => p.disconnect()).catch(() => {});
      else await producer?.disconnect();
      if (adminReady) await admin.disconnect();
    },
  };
};

const withTimeout = async <T>(promise: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Retries what kafkajs marks retriable but does not retry itself: right after a topic is created or
 * a broker restarts, ListOffsets can answer "not the leader" until the metadata settles.
 */
const retryRetriable = async <T>(operation: () => Promise<T>, attempts = 20): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const retriable = (error as { retriable?: boolean } | null)?.retriable === true;
      if (!retriable || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * attempt)));
    }
  }
};
