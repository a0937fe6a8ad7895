import type { Reply } from './keyedRoute.js';

/**
 * Serialized replies by name, valid while the `stamp` (the versions their body was built from)
 * is unchanged. A body and its ETag only change with a version, so hot items and pages are
 * serialized and hashed once per version instead of once per request. Bounded: when full, the
 * oldest entry goes.
 */
export interface ReplyCache {
  /** The cached reply when it was built from the same stamp, else `build()`'s, remembered. */
  get(name: string, stamp: string | number, build: () => Reply): Reply;
}

export const createReplyCache = (maxEntries: number): ReplyCache => {
  const entries = new Map<string, { stamp: string | number; reply: Reply }>();
  return {
    get(name, stamp, build) {
      const cached = entries.get(name);
      if (cached && cached.stamp === stamp) return cached.reply;
      const reply = build();
      if (!cached && entries.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(name, { stamp, reply });
      return reply;
    },
  };
};
