import { FencedError, type Lease, type ReadModelOp } from '../projectionStore.js';
import { isNoScript, type RedisCommands, type Reply } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';
import { leaseValueOf } from './redisLeaseValue.js';
import { planWriteChunks, type WriteChunk, type WriteChunkOptions } from './redisWriteChunks.js';

export interface BatchOutcome {
  /** Per op: whether it changed anything. */
  readonly applied: boolean[];
  /** Some call found the scripts missing: load them and write the batch again. */
  readonly noScript: boolean;
}

/**
 * Issues every APPLY call of a batch at once (pipelined, per node on a cluster) and reports per
 * op whether it changed anything. Throws FencedError when a call found the lease taken over, and
 * the first error that is not NOSCRIPT. On one node every call checks the lease itself; on a
 * cluster the lease lives in another slot and the caller checks it (docs/read-models.md).
 */
export const writeBatch = async (
  commands: RedisCommands,
  key: RedisKeys,
  ops: readonly ReadModelOp[],
  lease: Lease | undefined,
  chunkOptions: Omit<WriteChunkOptions, 'cluster'> = {},
): Promise<BatchOutcome> => {
  const fence = lease && !commands.cluster ? [key.lease(lease.name), leaseValueOf(lease)] : ['', ''];
  const chunks = planWriteChunks(ops, key, { ...chunkOptions, cluster: commands.cluster });
  const settled = await Promise.allSettled(chunks.map((chunk) => commands.evalsha('APPLY', [chunk.routeKey], fence.concat(chunk.args))));
  let noScript = false;
  const applied = ops.map(() => false);
  settled.forEach((result, c) => {
    if (result.status === 'rejected') {
      if (!isNoScript(result.reason)) throw result.reason;
      noScript = true;
      return;
    }
    if (result.value === -1) throw new FencedError();
    const flags = result.value as Reply[];
    (chunks[c] as WriteChunk).opOf.forEach((op, e) => {
      if (flags[e] === 1) applied[op] = true;
    });
  });
  return { applied, noScript };
};
