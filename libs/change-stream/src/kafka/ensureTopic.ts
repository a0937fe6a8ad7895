import type { Admin } from 'kafkajs';

/** Connects the admin client and creates the topic unless it exists. */
export async function ensureTopic(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true });
  } catch (error) {
    // Another process created it at the same moment.
    if (!isTopicExistsError(error)) throw error;
  }
}

/** The error Kafka answers when the topic was created by someone else first. */
export function isTopicExistsError(error: unknown): boolean {
  return error instanceof Error && /already exists/i.test(error.message);
}
