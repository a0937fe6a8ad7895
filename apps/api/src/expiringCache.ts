/**
 * A per-node cache of read-model lookups by name, dropped by change-stream messages and bounded
 * by a TTL (for collections and the plan, which change rarely but are read on every request).
 */
export interface ExpiringCache<T> {
  get(name: string): Promise<T>;
  invalidate(name: string): void;
  clear(): void;
}

export const createExpiringCache = <T>(options: { load: (name: string) => Promise<T>; ttlMs: number; nowMs?: () => number; maxEntries?: number }): ExpiringCache<T> => {
  const nowMs = options.nowMs ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { expiresAt: number; value: Promise<T> }>();
  return {
    get(name) {
      if (options.ttlMs <= 0) return options.load(name);
      const now = nowMs();
      const cached = entries.get(name);
      if (cached && cached.expiresAt > now) return cached.value;
      if (entries.size >= maxEntries) entries.clear();
      const entry = { expiresAt: now + options.ttlMs, value: options.load(name) };
      entries.set(name, entry);
      entry.value.catch(() => {
        if (entries.get(name) === entry) entries.delete(name);
      });
      return entry.value;
    },
    invalidate(name) {
      entries.delete(name);
    },
    clear() {
      entries.clear();
    },
  };
};
