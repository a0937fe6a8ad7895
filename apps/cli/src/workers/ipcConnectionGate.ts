import { createConnectionCounter, type ConnectionGate } from '@pubstream/http';
import type { IpcClient, IpcHandlers } from './workerIpc.js';

/**
 * A worker's per-address connection cap: counted in the primary, which sees every worker's
 * connections, so MAX_CONNECTIONS_PER_ADDRESS holds for the port as a whole (docs/security.md).
 */
export const createIpcConnectionGate = (primary: IpcClient): ConnectionGate => ({
  admit: (address) => primary.call<boolean>('connections.admit', [address]),
  release: (address) => void primary.call('connections.release', [address]).catch(() => {}),
});

/** One count for all workers; `forget()` gives back what a worker held when it exits. */
export const createConnectionCounts = (max: number) => {
  const counter = createConnectionCounter(max);
  return {
    /** The primary's side for one worker. */
    forWorker(): { readonly handlers: IpcHandlers; forget(): void } {
      const held = new Map<string, number>();
      const release = (address: string): void => {
        const count = held.get(address) ?? 0;
        if (count === 0) return;
        if (count === 1) held.delete(address);
        else held.set(address, count - 1);
        counter.release(address);
      };
      return {
        handlers: {
          'connections.admit': (address: string) => {
            const admitted = counter.admit(address);
            if (admitted) held.set(address, (held.get(address) ?? 0) + 1);
            return admitted;
          },
          'connections.release': release,
        },
        forget() {
          for (const [address, count] of held) for (let i = 0; i < count; i++) counter.release(address);
          held.clear();
        },
      };
    },
    count: (address: string): number => counter.count(address),
  };
};
