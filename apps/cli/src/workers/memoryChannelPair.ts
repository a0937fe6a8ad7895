import type { IpcChannel } from './workerIpc.js';

export interface MemoryChannelPair {
  readonly primary: IpcChannel;
  readonly worker: IpcChannel;
  /** While held, messages are dropped (an unresponsive other end); `cut` also makes send throw. */
  hold(held: boolean): void;
  cut(): void;
}

/**
 * Two connected channel ends in one process, for unit tests: messages arrive on a later turn and
 * go through JSON, as they do over the cluster's IPC.
 */
export const createMemoryChannelPair = (): MemoryChannelPair => {
  const listeners = { primary: new Set<(message: unknown) => void>(), worker: new Set<(message: unknown) => void>() };
  let held = false;
  let cut = false;
  const end = (to: keyof typeof listeners): IpcChannel => ({
    send(message) {
      if (cut) throw new Error('channel closed');
      const copy: unknown = JSON.parse(JSON.stringify(message));
      setImmediate(() => {
        if (held || cut) return;
        for (const listener of listeners[to]) listener(copy);
      });
    },
    onMessage(listener) {
      listeners[to === 'primary' ? 'worker' : 'primary'].add(listener);
      return () => void listeners[to === 'primary' ? 'worker' : 'primary'].delete(listener);
    },
  });
  return {
    primary: end('worker'),
    worker: end('primary'),
    hold: (value) => void (held = value),
    cut: () => void (cut = true),
  };
};
