import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { ChangeStreamHandlers, ChangeSubscription } from '../changeStream.js';
import type { ChangeStreamLogger } from '../changeStreamLogger.js';
import { decodeChangeMessages } from './changeMessageCodec.js';
import { createFetchLiveness } from './fetchLiveness.js';
import { followGroupJoins, type GroupMember } from './groupJoin.js';
import { retryRetriable } from './retryRetriable.js';
import { withTimeout } from './withTimeout.js';

/** Options of {@link subscribeToTopic}. */
export interface TopicSubscriptionOptions {
  topic: string;
  groupIdPrefix: string;
  joinTimeoutMs: number;
  logger: ChangeStreamLogger;
  /** How long without an answered fetch before `problem()` reports one (default 5 s). */
  staleAfterMs?: number;
}

/**
 * Subscribes to every partition of the topic from its end as it is now, in a consumer group of its
 * own (`${groupIdPrefix}-${uuid}`); resolves once the group is joined and the partitions are
 * positioned. Closing leaves the group and deletes it.
 */
export async function subscribeToTopic(kafka: Kafka, admin: Admin, options: TopicSubscriptionOptions, handlers: ChangeStreamHandlers): Promise<ChangeSubscription> {
  const { topic, logger, joinTimeoutMs } = options;
  // Positions fixed BEFORE subscribe() resolves: whatever is published afterwards lies at or
  // beyond them, so it cannot be lost to a consumer that joins its group a moment later.
  const start = await retryRetriable(() => admin.fetchTopicOffsets(topic));
  const groupId = `${options.groupIdPrefix}-${randomUUID()}`;
  // Each group has exactly one member (this subscription): after a broker restart the coordinator
  // waits for the crashed member's session to expire before the rejoin completes, so keep it short
  // (the broker's minimum is 6 s) instead of kafkajs' 30 s default.
  const consumer: Consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 500, allowAutoTopicCreation: false, sessionTimeout: 6_000, rebalanceTimeout: 6_000, heartbeatInterval: 1_000 });
  let active = true;
  const liveness = createFetchLiveness({ staleAfterMs: options.staleAfterMs ?? 5_000 });
  consumer.on(consumer.events.FETCH, () => liveness.seen());
  consumer.on(consumer.events.GROUP_JOIN, () => liveness.seen());
  const firstJoin = followGroupJoins(groupMember(consumer, topic), { start, groupId, logger, isActive: () => active, onGap: (reason) => handlers.onGap?.(reason) });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: false });
    await consumer.run({
      eachBatch: async ({ batch }) => {
        const messages = decodeChangeMessages(
          batch.messages.map((message) => message.value),
          (error) => logger.warn({ err: error, topic }, 'change-stream message is not JSON; skipped'),
        );
        if (messages.length > 0 && active) handlers.onMessages(messages);
      },
    });
    // Resolves once the group is joined, the partitions assigned and their positions set.
    await withTimeout(firstJoin, joinTimeoutMs, `consumer group ${groupId} not joined within ${joinTimeoutMs} ms`);
  } catch (error) {
    active = false;
    await consumer.disconnect().catch(() => {});
    throw error;
  }
  return {
    problem: () => (active ? liveness.problem() : null),
    close: async () => {
      if (!active) return;
      active = false;
      await consumer.disconnect();
      // The group was ephemeral; leaving it behind would only clutter the broker.
      await admin.deleteGroups([groupId]).catch((error: unknown) => logger.warn({ err: error, groupId }, 'could not delete consumer group'));
    },
  };
}

function groupMember(consumer: Consumer, topic: string): GroupMember {
  return {
    onJoin: (listener) => void consumer.on(consumer.events.GROUP_JOIN, listener),
    onCrash: (listener) => void consumer.on(consumer.events.CRASH, (event) => listener(event.payload)),
    seek: (partition, offset) => consumer.seek({ topic, partition, offset }),
  };
}
