import type { UsageCount, UsageStore } from '@pubstream/read-model';
import type { Logger } from '@pubstream/observability';

export interface UsageRecorder {
  /** Counts one request of the key (no I/O: buffered). */
  record(keyId: string): void;
  /** Writes the buffered counts now. */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  close(): Promise<void>;
}

/**
 * Buffers per-request usage in memory and writes it with one `recordUsage` batch per interval,
 * so counting usage costs no round trip on the request path. Counts are bucketed by hour so a
 * flush never moves requests into the wrong hour, day or month.
 */
// Number arithmetic instead of toISOString().slice(0, 13): record() runs on every request.
const hourBucket = (keyId: string, at: Date): string => `${keyId}|${Math.floor(at.getTime() / 3_600_000)}`;

export const createUsageRecorder = (deps: { store: Pick<UsageStore, 'recordUsage'>; logger: Logger; now: () => Date; intervalMs?: number }): UsageRecorder => {
  let pending = new Map<string, { keyId: string; at: Date; count: number }>();
  let flushing: Promise<void> = Promise.resolve();

  const flushOnce = async (): Promise<void> => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    const counts: UsageCount[] = [...batch.values()];
    try {
      await deps.store.recordUsage(counts);
    } catch (error) {
      // Keep the counts for the next flush rather than losing billable usage.
      for (const count of counts) {
        const key = hourBucket(count.keyId, count.at);
        const existing = pending.get(key);
        if (existing) existing.count += count.count;
        else pending.set(key, { ...count });
      }
      deps.logger.warn({ err: error }, 'writing usage counts failed; will retry');
    }
  };
  const flush = (): Promise<void> => (flushing = flushing.then(flushOnce));

  const timer = setInterval(() => void flush(), deps.intervalMs ?? 1_000);
  timer.unref();

  return {
    record(keyId) {
      const at = deps.now();
      const key = hourBucket(keyId, at);
      const entry = pending.get(key);
      if (entry) {
        entry.count++;
        entry.at = at;
      } else {
        pending.set(key, { keyId, at, count: 1 });
      }
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
};
