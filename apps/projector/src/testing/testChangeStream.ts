import type { ChangeMessage, ChangeStream, ChangeStreamHandlers } from '@pubstream/change-stream';

export interface TestChangeStream {
  readonly changeStream: ChangeStream;
  /** Every message subscribers received, in order. */
  readonly received: ChangeMessage[];
  /** How many publishes failed on purpose so far. */
  failures(): number;
}

/**
 * A change stream for projector tests that records what subscribers receive; its first
 * `failPublishes` publishes throw, as a broker outage or a crash right after the write would.
 */
export const createTestChangeStream = (options: { failPublishes?: number } = {}): TestChangeStream => {
  const received: ChangeMessage[] = [];
  const handlers = new Set<ChangeStreamHandlers>();
  let toFail = options.failPublishes ?? 0;
  let failed = 0;
  const changeStream: ChangeStream = {
    async publish(messages) {
      if (toFail > 0) {
        toFail -= 1;
        failed += 1;
        throw new Error('change stream unavailable');
      }
      received.push(...messages);
      for (const h of handlers) h.onMessages(messages);
    },
    async subscribe(h) {
      handlers.add(h);
      return { close: async () => void handlers.delete(h) };
    },
    async close() {
      handlers.clear();
    },
  };
  return { changeStream, received, failures: () => failed };
};
