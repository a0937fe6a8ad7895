import type { ChangeStream } from '@pubstream/change-stream';

/** Exit code of a process stopped by the fault injection, so tests tell it from a real crash. */
export const FAULT_EXIT_CODE = 86;

/**
 * Fault injection for crash tests: the projector publishes only after its read-model write, so
 * exiting in `publish` is exactly a crash between the write and the publish (the gap the
 * published checkpoint exists for). With probability 0 the change stream is returned as is.
 */
export const crashBeforePublish = (
  changeStream: ChangeStream,
  probability: number,
  onCrash: () => void,
  random: () => number = Math.random,
  exit: (code: number) => void = (code) => process.exit(code),
): ChangeStream => {
  if (probability <= 0) return changeStream;
  return {
    subscribe: (handlers) => changeStream.subscribe(handlers),
    close: () => changeStream.close(),
    publish: (messages) => {
      if (messages.length > 0 && random() < probability) {
        onCrash();
        exit(FAULT_EXIT_CODE);
        // Only reached when `exit` does not end the process (unit tests): never publish.
        return new Promise<void>(() => {});
      }
      return changeStream.publish(messages);
    },
  };
};
