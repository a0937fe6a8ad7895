import type { ChangeMessage, ChangeStream, ChangeStreamHandlers, ChangeSubscription } from './changeStream.js';
import { silentLogger, type ChangeStreamLogger } from './changeStreamLogger.js';

/**
 * The embedded profile's change stream: an in-process fan-out, valid only when the projector and the
 * API share one process. Delivery is synchronous and in publish order, so it never has gaps; a
 * subscriber that throws is logged and does not stop the others.
 */
export const createInProcessChangeStream = (options: { logger?: ChangeStreamLogger } = {}): ChangeStream => {
  const logger = options.logger ?? silentLogger;
  const subscribers = new Set<ChangeStreamHandlers>();
  let closed = false;

  return {
    async publish(messages: readonly ChangeMessage[]): Promise<void> {
      if (closed) throw new Error('change stream is closed');
      if (messages.length === 0) return;
      const batch = Object.freeze([...messages]);
      for (const handlers of [...subscribers]) {
        try {
          handlers.onMessages(batch);
        } catch (error) {
          logger.error({ err: error }, 'change-stream subscriber failed');
        }
      }
    },
    async subscribe(handlers: ChangeStreamHandlers): Promise<ChangeSubscription> {
      if (closed) throw new Error('change stream is closed');
      subscribers.add(handlers);
      return {
        close: async () => {
          subscribers.delete(handlers);
        },
      };
    },
    async close(): Promise<void> {
      closed = true;
      subscribers.clear();
    },
  };
};
