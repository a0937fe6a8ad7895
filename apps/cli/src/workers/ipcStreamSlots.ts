import { createMemoryStreamSlots, type MemoryStreamSlotStore, type StreamSlots } from '@pubstream/access';
import type { IpcClient, IpcHandlers } from './workerIpc.js';

/**
 * A worker's stream slots: held in the primary, one store for every worker, so the per-key cap
 * counts the streams of all workers (docs/subscriptions.md, "Caps").
 */
export const createIpcStreamSlots = (primary: IpcClient): StreamSlots => ({
  acquire: (keyId, streamId, limit) => primary.call<boolean>('streamSlots.acquire', [keyId, streamId, limit]),
  release: async (keyId, streamId) => void (await primary.call('streamSlots.release', [keyId, streamId])),
  refresh: async () => void (await primary.call('streamSlots.refresh', [])),
  count: (keyId) => primary.call<number>('streamSlots.count', [keyId]),
});

/**
 * The primary's side for one worker: that worker is one node of the shared memory store (its own
 * heartbeat). `forget()` frees its slots at once when it exits, rather than after the slots' TTL.
 */
export const workerStreamSlots = (store: MemoryStreamSlotStore, nodeId: string): { readonly handlers: IpcHandlers; forget(): void } => {
  const slots = createMemoryStreamSlots({ store, nodeId });
  return {
    handlers: {
      'streamSlots.acquire': (keyId: string, streamId: string, limit: number) => slots.acquire(keyId, streamId, limit),
      'streamSlots.release': (keyId: string, streamId: string) => slots.release(keyId, streamId),
      'streamSlots.refresh': () => slots.refresh(),
      'streamSlots.count': (keyId: string) => slots.count(keyId),
    },
    forget() {
      // Members are `${nodeId}:${streamId}` (memoryStreamSlots.ts).
      for (const [keyId, members] of store.keys) {
        for (const member of members.keys()) if (member.startsWith(`${nodeId}:`)) members.delete(member);
        if (members.size === 0) store.keys.delete(keyId);
      }
    },
  };
};
