import type { EventStore } from '@pubstream/event-store';
import { rebuildReadModels } from '@pubstream/projector';
import { createMemoryStores, type ApplyOptions, type ReadModelOp, type Stores } from '@pubstream/read-model';

/** What a rebuild of a log writes, batch by batch: the ops, the position each batch reaches and its options (the history it records). */
export interface RecordedRebuild {
  readonly ops: ReadModelOp[][];
  readonly positions: number[];
  readonly options: (ApplyOptions | undefined)[];
  readonly events: number;
}

/** The ops a rebuild of `store` writes, batch by batch, with the position each batch reaches. */
export const recordRebuildOps = async (store: EventStore): Promise<RecordedRebuild> => {
  const memory = createMemoryStores();
  const ops: ReadModelOp[][] = [];
  const positions: number[] = [];
  const options: (ApplyOptions | undefined)[] = [];
  const apply = memory.projections.apply.bind(memory.projections);
  const recording = {
    ...memory,
    projections: {
      ...memory.projections,
      apply: (batch: readonly ReadModelOp[], checkpoint: { projection: string; position: number }, applyOptions?: ApplyOptions) => {
        ops.push([...batch]);
        positions.push(checkpoint.position);
        options.push(applyOptions);
        return apply(batch, checkpoint, applyOptions);
      },
    },
  };
  const result = await rebuildReadModels({ eventStore: store, target: recording });
  return { ops, positions, options, events: result.events };
};

/**
 * The pipelined ceiling of a replay into `target`: the same ops a rebuild writes, already folded
 * and in memory, applied `inFlight` batches at a time (each with its checkpoint and the history the
 * rebuild records with it, so that Redis does the same writes). No log reads, no
 * decoding, no folding: what the store and the client's command encoding allow. Events per second.
 */
export const applyCeiling = async (recorded: RecordedRebuild, target: Stores, inFlight = 4): Promise<number> => {
  const started = performance.now();
  const pending = new Set<Promise<unknown>>();
  for (const [n, batch] of recorded.ops.entries()) {
    // Calls go out on one connection in issue order, so batches in flight keep the order of the log.
    const call = target.projections.apply(batch, { projection: 'ceiling', position: recorded.positions[n] ?? 0 }, recorded.options[n]);
    pending.add(call);
    void call.finally(() => pending.delete(call));
    if (pending.size >= inFlight) await Promise.race(pending);
  }
  await Promise.all(pending);
  return recorded.events / ((performance.now() - started) / 1000);
};
