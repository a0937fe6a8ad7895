import type { KeyRecord } from '@pubstream/read-model';
import { createExpiringCache, type ExpiringCache, type ExpiringCacheOptions } from './expiringCache.js';

/**
 * The per-node cache of key records by key hash, in front of the read model. Unknown keys are
 * cached too (as null), so random keys cost one lookup per TTL, not one per request.
 */
export type KeyCache = ExpiringCache<KeyRecord | null>;

export const createKeyCache = (options: ExpiringCacheOptions<KeyRecord | null>): KeyCache => createExpiringCache(options);
