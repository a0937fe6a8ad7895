import { hashApiKey } from './apiKeys.js';

/**
 * SHA-256 of recently presented keys. Every keyed request hashes its key before the lookup, and a
 * busy key is presented thousands of times a second: a hit here skips the hash (a profile showed
 * crypto Hash as one of the largest self-time entries on GET item). Bounded: when full, the
 * oldest entry goes, so random keys cannot grow it.
 */
export const createKeyHashMemo = (maxEntries = 10_000): ((apiKey: string) => string) => {
  const hashes = new Map<string, string>();
  return (apiKey) => {
    let hash = hashes.get(apiKey);
    if (hash === undefined) {
      hash = hashApiKey(apiKey);
      if (hashes.size >= maxEntries) {
        // Maps iterate in insertion order: drop the oldest entry.
        const oldest = hashes.keys().next();
        if (!oldest.done) hashes.delete(oldest.value);
      }
      hashes.set(apiKey, hash);
    }
    return hash;
  };
};
