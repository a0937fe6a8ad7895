import { FencedError, type Lease, type ProjectionStore } from '../projectionStore.js';
import { changeEntryOf } from '../changeEntryOf.js';
import type { ChangeEntry } from '../changeHistory.js';
import { applyMemoryOp } from './applyMemoryOp.js';
import { createMemoryHistoryState, recordMemoryHistory, recordMemoryTime, type MemoryHistoryState } from './memoryHistory.js';
import type { MemoryRecords } from './memoryRecords.js';

interface HeldLease {
  readonly holder: string;
  readonly token: number;
  expiresAt: number;
}

/** The projection store's own state beside the records: checkpoints, leases, the last tokens. */
export interface MemoryProjectionState {
  readonly checkpoints: Map<string, number>;
  readonly leases: Map<string, HeldLease>;
  readonly leaseTokens: Map<string, number>;
  readonly history: MemoryHistoryState;
}

export const createMemoryProjectionState = (): MemoryProjectionState => ({ checkpoints: new Map(), leases: new Map(), leaseTokens: new Map(), history: createMemoryHistoryState() });

/**
 * The projection store over the memory records: every batch is applied synchronously, so each op
 * and each batch is atomic. Leases expire by the injected clock; a lease is current only for its
 * holder AND token, and tokens never go below the clock in ms, as in the Redis adapter
 * (docs/read-models.md, Fencing).
 */
export const createMemoryProjectionStore = (records: MemoryRecords, now: () => Date, state: MemoryProjectionState = createMemoryProjectionState()): ProjectionStore => {
  const { checkpoints, leases, leaseTokens, history } = state;

  const liveLease = (name: string): HeldLease | undefined => {
    const lease = leases.get(name);
    return lease && lease.expiresAt > now().getTime() ? lease : undefined;
  };
  const isCurrent = (lease: Lease): HeldLease | undefined => {
    const current = liveLease(lease.name);
    return current?.token === lease.token && current.holder === lease.holder ? current : undefined;
  };

  return {
    async apply(ops, checkpoint, options) {
      const lease = options?.lease;
      if (lease && !isCurrent(lease)) throw new FencedError();
      const previous = checkpoints.get(checkpoint.projection) ?? 0;
      const applied = ops.map((op) => applyMemoryOp(records, op));
      const recording = options?.history;
      if (recording) {
        const entries = ops.flatMap((op, i) => (applied[i] ? (changeEntryOf(op) ?? []) : [])) as ChangeEntry[];
        recordMemoryHistory(history, entries, previous, recording);
      }
      checkpoints.set(checkpoint.projection, Math.max(previous, checkpoint.position));
      if (recording) recordMemoryTime(history, Math.max(previous, checkpoint.position), recording);
      return applied;
    },
    async acquireLease(name, holder, ttlMs) {
      const current = liveLease(name);
      if (current && current.holder !== holder) return null;
      const token = Math.max((leaseTokens.get(name) ?? 0) + 1, now().getTime());
      leaseTokens.set(name, token);
      leases.set(name, { holder, token, expiresAt: now().getTime() + ttlMs });
      return { name, holder, token };
    },
    async renewLease(lease, ttlMs) {
      const current = isCurrent(lease);
      if (!current) return false;
      current.expiresAt = now().getTime() + ttlMs;
      return true;
    },
    async releaseLease(lease) {
      if (isCurrent(lease)) leases.delete(lease.name);
    },
    async getCheckpoint(projection) {
      return checkpoints.get(projection) ?? 0;
    },
    async markCaughtUp(checkpoint) {
      if ((checkpoints.get(checkpoint.projection) ?? 0) >= checkpoint.position) records.caughtUp = true;
      return records.caughtUp;
    },
  };
};
