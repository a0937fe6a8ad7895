import { createInProcessChangeStream, type ChangeMessage, type ChangeStream } from '@pubstream/change-stream';

export interface TestChangeStream {
  /** The in-process adapter, wrapped so that its first `failPublishes` publishes throw. */
  readonly changeStream: ChangeStream;
  /** Every message a subscriber of the stream received, in order. */
  readonly received: ChangeMessage[];
  /** How many publishes failed on purpose so far. */
  failures(): number;
}

/**
 * The real in-process change stream with one recording subscriber; its first `failPublishes`
 * publishes throw, as a broker outage or a crash right after the read-model write would.
 */
export const createTestChangeStream = async (
  options: {
    failPublishes?: number;
    /** From the first publish this matches on, every publish fails: the process "died" there. */
    dieWhen?: (messages: readonly ChangeMessage[]) => boolean;
  } = {},
): Promise<TestChangeStream> => {
  const inner = createInProcessChangeStream();
  const received: ChangeMessage[] = [];
  await inner.subscribe({ onMessages: (messages) => void received.push(...messages) });
  let toFail = options.failPublishes ?? 0;
  let failed = 0;
  const changeStream: ChangeStream = {
    async publish(messages) {
      if (options.dieWhen?.(messages)) toFail = Infinity;
      if (toFail > 0) {
        toFail -= 1;
        failed += 1;
        throw new Error('change stream unavailable');
      }
      await inner.publish(messages);
    },
    subscribe: (handlers) => inner.subscribe(handlers),
    close: () => inner.close(),
  };
  return { changeStream, received, failures: () => failed };
};
