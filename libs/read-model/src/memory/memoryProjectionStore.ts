import { FencedError, type ProjectionStore } from '../projectionStore.js';
import { applyMemoryOp } from './applyMemoryOp.js';
import type { MemoryRecords } from './memoryRecords.js';

interface HeldLease {
  readonly holder: string;
  readonly token: number;
  expiresAt: number;
}

/**
 * The projection store over the memory records: every batch is applied synchronously, so each op
 * and each batch is atomic. Leases expire by the injected clock; tokens only grow.
 */
export const createMemoryProjectionStore = (records: MemoryRecords, now: () => Date): ProjectionStore => {
  const checkpoints = new Map<string, number>();
  const leases = new Map<string, HeldLease>();
  const leaseTokens = new Map<string, number>();

  const liveLease = (name: string): HeldLease | undefined => {
    const lease = leases.get(name);
    return lease && lease.expiresAt > now().getTime() ? lease : undefined;
  };

  return {
    async apply(ops, checkpoint, options) {
      const lease = options?.lease;
      if (lease && liveLease(lease.name)?.token !== lease.token) throw new FencedError();
      const applied = ops.map((op) => applyMemoryOp(records, op));
      checkpoints.set(checkpoint.projection, Math.max(checkpoints.get(checkpoint.projection) ?? 0, checkpoint.position));
      return applied;
    },
    async acquireLease(name, holder, ttlMs) {
      const current = liveLease(name);
      if (current && current.holder !== holder) return null;
      const token = (leaseTokens.get(name) ?? 0) + 1;
      leaseTokens.set(name, token);
      leases.set(name, { holder, token, expiresAt: now().getTime() + ttlMs });
      return { name, holder, token };
    },
    async renewLease(lease, ttlMs) {
      const current = liveLease(lease.name);
      if (current?.token !== lease.token) return false;
      current.expiresAt = now().getTime() + ttlMs;
      return true;
    },
    async releaseLease(lease) {
      if (leases.get(lease.name)?.token === lease.token) leases.delete(lease.name);
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
