import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@pubstream/event-store';
import { rebuildReadModels, type ProgressReporter, type RebuildResult } from '@pubstream/projector';
import {
  createRedisStores,
  dropGeneration,
  listGenerations,
  newGenerationNamespace,
  readActiveGeneration,
  readPendingGeneration,
  setPendingGeneration,
  switchGeneration,
  type RedisReadModelClient,
} from '@pubstream/read-model';

export interface GenerationRebuildOptions {
  readonly client: RedisReadModelClient;
  readonly eventStore: EventStore;
  /** Root namespace of the generational read model (default `ps`). */
  readonly root?: string;
  readonly progress?: ProgressReporter;
  readonly now?: () => Date;
  /**
   * How long to wait after the switch before dropping the old generation: every process reads
   * the pointer at least once in that time (twice their refresh interval). Default 2500 ms.
   */
  readonly settleMs?: number;
  readonly batchSize?: number;
  /** RESUME_WINDOW: the new generation's history is rebuilt for this window. Default 24 h. */
  readonly resumeWindowMs?: number;
  readonly signal?: AbortSignal;
  /** Called with one line per step (resumed, switched, dropped). */
  readonly log?: (message: string) => void;
}

export interface GenerationRebuildResult extends RebuildResult {
  /** The generation built (now active unless the run was aborted). */
  readonly generation: string;
  /** The generation that was active before, dropped after the switch. */
  readonly previous: string;
  readonly switched: boolean;
  /** Keys deleted with the previous generation. */
  readonly dropped: number;
}

/**
 * `pubstream projections rebuild` on Redis: builds every projection from position 0 into a new
 * namespace `${root}-g<timestamp>` while the live generation keeps serving, catches up with live
 * writes, switches the pointer (one SET), waits until every process has read it, and drops the old
 * generation. The generation being built is recorded under the root, so a run that crashed (even
 * SIGKILL) is resumed by the next one from the new generation's own checkpoint.
 *
 * The running projector follows the pointer: its lease lives in the old generation, so once its
 * stores refresh, its next write is fenced off; it takes the lease again in the new generation
 * and continues from the checkpoint the rebuild left there. Events it applied to the old generation
 * after the rebuild's last pass are applied again (every write is version-guarded, so that is safe).
 */
export const rebuildGeneration = async (options: GenerationRebuildOptions): Promise<GenerationRebuildResult> => {
  const { client, eventStore } = options;
  const root = options.root ?? 'ps';
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const previous = await readActiveGeneration(client, root);
  let generation = await readPendingGeneration(client, root);
  if (generation !== null && generation !== previous) {
    log(`resuming the unfinished generation ${generation}`);
  } else {
    generation = newGenerationNamespace(root, now());
    await setPendingGeneration(client, root, generation);
    log(`building generation ${generation} beside the live ${previous}`);
  }

  // The adapters share the caller's client; they are not closed here (close() would close it).
  const target = createRedisStores(client, { namespace: generation });
  const result = await rebuildReadModels({ eventStore, target, progress: options.progress, now, batchSize: options.batchSize, resumeWindowMs: options.resumeWindowMs, signal: options.signal });
  if (result.aborted) return { ...result, generation, previous, switched: false, dropped: 0 };

  // Caught up before it goes live, so its misses are trusted from the switch on (docs/read-models.md, "Unknown is not missing").
  await target.projections.markCaughtUp({ projection: 'projector', position: result.position });
  await switchGeneration(client, root, generation);
  await setPendingGeneration(client, root, null);
  log(`switched the active generation from ${previous} to ${generation}`);
  await sleep(options.settleMs ?? 2500);
  // The previous generation, and any left behind by a run that crashed between switch and drop.
  let dropped = 0;
  for (const { namespace, active } of await listGenerations(client, root)) {
    if (active) continue;
    const keys = await dropGeneration(client, root, namespace);
    dropped += keys;
    if (keys > 0) log(`dropped the old generation ${namespace} (${keys} keys)`);
  }
  return { ...result, generation, previous, switched: true, dropped };
};
