/**
 * A small per-node cache of read-model lookups by name. Entries are dropped when the change stream
 * reports the thing changed (`invalidate`), or all at once after a gap (`clear`); the TTL bounds
 * staleness when a message is missed. Whatever `load` resolves is cached, null included.
 */
export interface ExpiringCache<T> {
  get(name: string): Promise<T>;
  invalidate(name: string): void;
  clear(): void;
}

export interface ExpiringCacheOptions<T> {
  load: (name: string) => Promise<T>;
  /** 0 disables caching (every request reads the read model). */
  ttlMs: number;
  /** Milliseconds clock. */
  nowMs?: () => number;
  maxEntries?: number;
}

interface Entry<T> {
  readonly expiresAt: number;
  value: Promise<T>;
}

/** An {@link ExpiringCache} over `load`; at `maxEntries` (default 10,000) the oldest entry goes. */
export const createExpiringCache = <T>(options: ExpiringCacheOptions<T>): ExpiringCache<T> => {
  const { load, ttlMs } = options;
  const nowMs = options.nowMs ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry<T>>();

  return {
    get(name) {
      if (ttlMs <= 0) return load(name);
      const now = nowMs();
      const cached = entries.get(name);
      if (cached && cached.expiresAt > now) return cached.value;
      if (cached) entries.delete(name);
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      const entry: Entry<T> = { expiresAt: now + ttlMs, value: load(name) };
      entries.set(name, entry);
      // Failures are not cached: the next request tries the read model again.
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
