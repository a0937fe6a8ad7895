import { historyIndexStepMs, historyTtlMs, type HistoryRecording } from '../changeHistory.js';
import { FencedError, type Lease, type ProjectionStore } from '../projectionStore.js';
import { writeBatch } from './redisBatchWrite.js';
import type { RedisCommands } from './redisCommands.js';
import { MARK_CAUGHT_UP } from './caughtUpScript.js';
import type { RedisKeys } from './redisKeys.js';
import { leaseValueOf } from './redisLeaseValue.js';
import type { WriteChunkOptions } from './redisWriteChunks.js';

const ttlArg = (ttlMs: number): string => String(Math.max(1, Math.ceil(ttlMs)));

/**
 * The projection store on Redis (docs/read-models.md): writes go through one batched Lua script
 * (with the positions and, when recording, the history entries of the same changes),
 * every record guarded by its version; all calls of a batch are pipelined and the checkpoint is
 * written after their effects. Leases are `"<token> <holder>"` strings with a PX expiry, and every
 * fenced call compares the whole string; tokens never go below the server clock in µs, so they keep
 * growing after Redis lost its data.
 */
export const createRedisProjectionStore = (commands: RedisCommands, key: RedisKeys, writeChunk: Omit<WriteChunkOptions, 'cluster'> = {}): ProjectionStore => {
  const checkLease = async (lease: Lease): Promise<void> => {
    const current = await commands.send(key.lease(lease.name), ['GET', key.lease(lease.name)], true);
    if (current !== leaseValueOf(lease)) throw new FencedError();
  };

  // The trim position the last recorded checkpoint returned: entries at or below it are dropped by
  // the next batch's writes (one batch late, which only keeps a little more).
  let trim = 0;
  const historyArgs = (recording: HistoryRecording | undefined): string[] =>
    recording ? [key.historyMeta, key.historyTimes, String(recording.at.getTime()), String(recording.windowMs), String(historyIndexStepMs(recording.windowMs))] : [];

  return {
    async apply(ops, checkpoint, options) {
      const lease = options?.lease;
      const recording = options?.history;
      const history = recording ? { trim, ttlMs: historyTtlMs(recording.windowMs) } : undefined;
      // On one node every write call checks the lease itself. On a cluster a script can only read
      // the lease when it shares its slot, so the lease is checked once before the batch and again,
      // atomically, with the checkpoint (the window in between is in docs/read-models.md).
      if (lease && commands.cluster) await checkLease(lease);
      const first = await writeBatch(commands, key, ops, lease, { ...writeChunk, history });
      let applied = first.applied;
      if (first.noScript) {
        // Redis lost the scripts (restart, flush): load them and run the batch again. The ops that
        // went through are no-ops the second time, so the first answer is kept for them.
        await commands.loadScripts();
        const again = await writeBatch(commands, key, ops, lease, { ...writeChunk, history });
        applied = applied.map((done, i) => done || (again.applied[i] ?? false));
      }
      const fence = lease ? [key.lease(lease.name), leaseValueOf(lease)] : ['', ''];
      const args = [checkpoint.projection, String(checkpoint.position), ...fence, ...historyArgs(recording)];
      const reply = await commands.run('CHECKPOINT', [key.checkpoints], args);
      if (reply === -1) throw new FencedError();
      if (recording && typeof reply === 'number') trim = Math.max(trim, reply);
      return applied;
    },
    async acquireLease(name, holder, ttlMs) {
      const token = await commands.run('LEASE_ACQUIRE', [key.lease(name), key.leaseTokens(name)], [holder, ttlArg(ttlMs)]);
      return typeof token === 'number' ? { name, holder, token } : null;
    },
    async renewLease(lease, ttlMs) {
      return (await commands.run('LEASE_RENEW', [key.lease(lease.name)], [leaseValueOf(lease), ttlArg(ttlMs)])) === 1;
    },
    async releaseLease(lease) {
      await commands.run('LEASE_RENEW', [key.lease(lease.name)], [leaseValueOf(lease), '']);
    },
    async getCheckpoint(projection) {
      const reply = await commands.send(key.checkpoints, ['HGET', key.checkpoints, projection], true);
      return typeof reply === 'string' ? Number(reply) : 0;
    },
    async markCaughtUp(checkpoint) {
      // EVAL, not a registered script: called a few times a second at most, and it keeps this
      // addition apart from the write and lease scripts.
      const args = ['EVAL', MARK_CAUGHT_UP, '2', key.checkpoints, key.caughtUp, checkpoint.projection, String(checkpoint.position)];
      return (await commands.send(key.checkpoints, args)) === 1;
    },
  };
};
