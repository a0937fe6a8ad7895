import type { Reply } from './keyedRoute.js';

/**
 * Serialized replies by name, valid while the `stamp` (the versions their body was built from)
 * is unchanged. A body and its ETag only change with a version, so hot items and pages are
 * serialized and hashed once per version instead of once per request. Bounded by the total
 * length of the bodies it holds: when full, the oldest entries go.
 */
export interface ReplyCache {
  /** The cached reply when it was built from the same stamp, else `build()`'s, remembered. */
  get(name: string, stamp: string, build: () => Reply): Reply;
}

export const createReplyCache = (options: { maxChars: number }): ReplyCache => {
  const entries = new Map<string, { stamp: string; reply: Reply }>();
  let chars = 0;
  const forget = (name: string): void => {
    const entry = entries.get(name);
    if (!entry) return;
    chars -= entry.reply.body.length;
    entries.delete(name);
  };
  return {
    get(name, stamp, build) {
      const cached = entries.get(name);
      if (cached && cached.stamp === stamp) return cached.reply;
      const reply = build();
      forget(name);
      // A body that would take more than a tenth of the budget is not worth evicting others for.
      if (reply.body.length > options.maxChars / 10) return reply;
      // Maps iterate in insertion order: drop the oldest entries until the new body fits.
      for (const oldest of entries.keys()) {
        if (chars + reply.body.length <= options.maxChars) break;
        forget(oldest);
      }
      entries.set(name, { stamp, reply });
      chars += reply.body.length;
      return reply;
    },
  };
};
