import { Gauge, type Registry } from 'prom-client';
import { createRedisStores, readPendingGeneration, type RedisReadModelClient } from '@pubstream/read-model';

/** Where a `pubstream projections rebuild` stands, read from Redis and the log at scrape time. */
export interface RebuildSample {
  /** The generation being built, or null when no rebuild is under way. */
  readonly generation: string | null;
  readonly position: number;
  readonly head: number;
}

/**
 * Samples a rebuild: the pending generation recorded under the root (generationRebuild.ts) and the
 * checkpoint the rebuild keeps in it, against the log's head. Bounded by `timeoutMs`.
 */
export const sampleRebuild = async (client: RedisReadModelClient, root: string, head: () => Promise<number>, timeoutMs = 1_000): Promise<RebuildSample> => {
  const work = (async () => {
    const generation = await readPendingGeneration(client, root);
    if (generation === null) return { generation, position: 0, head: await head() };
    // The adapters share the projector's client; they are never closed here (that would close it).
    const [position, logHead] = await Promise.all([createRedisStores(client, { namespace: generation }).projections.getCheckpoint('projector'), head()]);
    return { generation, position, head: logHead };
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Rebuild progress on the projector's /metrics (docs/operations.md, "Metrics"): the rebuild is a
 * one-shot CLI process that nobody scrapes, but it records its generation and checkpoint in Redis,
 * where every projector can read them. One sample per scrape shared by the three series; they keep
 * their last values when Redis or the log does not answer in time.
 */
export const registerRebuildMetrics = (registry: Registry, sample: () => Promise<RebuildSample>): void => {
  let pending: Promise<RebuildSample | null> | null = null;
  const shared = (): Promise<RebuildSample | null> => {
    pending ??= sample()
      .catch(() => null)
      .finally(() => setTimeout(() => (pending = null), 100).unref());
    return pending;
  };
  const gauge = (name: string, help: string, read: (taken: RebuildSample) => number | null): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const taken = await shared();
        const value = taken === null ? null : read(taken);
        if (value !== null) this.set(value);
      },
    });
  };
  gauge('pubstream_rebuild_active', '1 while `pubstream projections rebuild` builds a new generation, else 0', (s) => (s.generation === null ? 0 : 1));
  gauge('pubstream_rebuild_position', 'Log position the generation being rebuilt has reached (0 when none is)', (s) => s.position);
  gauge('pubstream_rebuild_progress_ratio', 'Share of the log the generation being rebuilt has applied, 0 to 1 (0 when none is)', (s) =>
    s.generation === null ? 0 : s.head === 0 ? 1 : Math.min(1, s.position / s.head),
  );
};
