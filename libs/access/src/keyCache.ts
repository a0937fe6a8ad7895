import type { KeyRecord } from '@pubstream/read-model';

/**
 * A small per-node cache of key records by key hash, in front of the read model. Entries are
 * dropped when the change stream reports the key changed (`invalidate`), or all at once after a
 * gap (`clear`); the TTL bounds staleness when a message is missed. Unknown keys are cached too
 * (as null), so random keys cost one lookup per TTL, not one per request.
 */
export interface KeyCache {
  get(keyHash: string): Promise<KeyRecord | null>;
  invalidate(keyHash: string): void;
  clear(): void;
}

interface Entry {
  readonly expiresAt: number;
  value: Promise<KeyRecord | null>;
}

export const createKeyCache = (options: {
  load: (keyHash: string) => Promise<KeyRecord | null>;
  /** 0 disables caching (every request reads the read model). */
  ttlMs: number;
  /** Milliseconds clock. */
  nowMs?: () => number;
  maxEntries?: number;
}): KeyCache => {
  const { load, ttlMs } = options;
  const nowMs = options.nowMs ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();

  return {
    get(keyHash) {
      if (ttlMs <= 0) return load(keyHash);
      const now = nowMs();
      const cached = entries.get(keyHash);
      if (cached && cached.expiresAt > now) return cached.value;
      if (cached) entries.delete(keyHash);
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      const entry: Entry = { expiresAt: now + ttlMs, value: load(keyHash) };
      entries.set(keyHash, entry);
      // Failures are not cached: the next request tries the read model again.
      entry.value.catch(() => {
        if (entries.get(keyHash) === entry) entries.delete(keyHash);
      });
      return entry.value;
    },
    invalidate(keyHash) {
      entries.delete(keyHash);
    },
    clear() {
      entries.clear();
    },
  };
};
