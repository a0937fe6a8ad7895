import { randomUUID } from 'node:crypto';
import { createHeldStreams } from './heldStreams.js';
import { DEFAULT_STREAM_SLOT_TTL_MS, type StreamSlots } from './streamSlots.js';

/** Slots shared by the "nodes" of one process: key id → slot → expiry (ms). */
export interface MemoryStreamSlotStore {
  readonly keys: Map<string, Map<string, number>>;
}

export const createMemoryStreamSlotStore = (): MemoryStreamSlotStore => ({ keys: new Map() });

/**
 * Stream slots in memory, for the embedded profile (one process). Same semantics as the Redis
 * adapter, expiry included, so that both pass one contract suite; `now` in milliseconds.
 */
export const createMemoryStreamSlots = (
  options: { store?: MemoryStreamSlotStore; ttlMs?: number; now?: () => number; nodeId?: string } = {},
): StreamSlots => {
  const store = options.store ?? createMemoryStreamSlotStore();
  const ttlMs = options.ttlMs ?? DEFAULT_STREAM_SLOT_TTL_MS;
  const now = options.now ?? Date.now;
  const nodeId = options.nodeId ?? `memory-${randomUUID()}`;
  const held = createHeldStreams();
  const member = (streamId: string): string => `${nodeId}:${streamId}`;

  const slotsOf = (keyId: string): Map<string, number> => {
    let slots = store.keys.get(keyId);
    if (!slots) store.keys.set(keyId, (slots = new Map()));
    return slots;
  };
  const sweep = (slots: Map<string, number>): Map<string, number> => {
    const at = now();
    for (const [slot, expiresAt] of slots) if (expiresAt <= at) slots.delete(slot);
    return slots;
  };
  const live = (keyId: string): Map<string, number> => sweep(slotsOf(keyId));

  return {
    async acquire(keyId, streamId, limit) {
      // Swept only when the key looks full: a sweep per acquire made 10,000 streams on one key quadratic.
      const slots = slotsOf(keyId);
      const name = member(streamId);
      if (!slots.has(name) && slots.size >= limit && sweep(slots).size >= limit) return false;
      slots.set(name, now() + ttlMs);
      held.add(keyId, streamId);
      return true;
    },
    async release(keyId, streamId) {
      held.remove(keyId, streamId);
      const slots = store.keys.get(keyId);
      slots?.delete(member(streamId));
      if (slots?.size === 0) store.keys.delete(keyId);
    },
    async refresh() {
      for (const { keyId, streamIds } of held.chunks()) {
        const slots = live(keyId);
        for (const streamId of streamIds) slots.set(member(streamId), now() + ttlMs);
      }
    },
    async count(keyId) {
      const size = live(keyId).size;
      if (size === 0) store.keys.delete(keyId);
      return size;
    },
  };
};
