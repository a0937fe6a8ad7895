import { createExpiringCache, createKeyCache, type ExpiringCache, type KeyCache } from '@pubstream/access';
import type { ChangeMessage } from '@pubstream/change-stream';
import { DEFAULT_PLAN } from '@pubstream/domain';
import type { CollectionRecord, KeyStore, MissConfirmation, PlanRecord, ReadModel } from '@pubstream/read-model';
import { backendCall } from './http/backendCall.js';

const FALLBACK_PLAN: PlanRecord = { plan: DEFAULT_PLAN, monthlyQuota: null, version: 0 };

/**
 * This node's caches of key, plan and collection records in front of the key store and the read model, kept
 * current by the change stream: a message drops what it is about, a gap drops everything. A key,
 * collection or plan the read model does not have is cached as null only once `misses` confirmed that the
 * read model is caught up (docs/read-models.md, "Unknown is not missing"); otherwise the load fails
 * with 503 and nothing is cached, so a miss read during a rebuild is never served after it.
 */
export interface AccessCaches {
  readonly keys: KeyCache;
  /** The project's plan (one entry, `plan`); the default plan before one was set. */
  readonly plans: ExpiringCache<PlanRecord>;
  readonly collections: ExpiringCache<CollectionRecord | null>;
  onMessages(messages: readonly ChangeMessage[]): void;
  onGap(): void;
}

export const createAccessCaches = (
  stores: { readonly readModel: Pick<ReadModel, 'getCollection'>; readonly keys: Pick<KeyStore, 'getKeyByHash' | 'getPlan'> },
  ttlMs: number,
  misses: MissConfirmation,
): AccessCaches => {
  const { readModel } = stores;
  const confirmedMiss = async <T>(record: T | null): Promise<T | null> => {
    if (record === null) await misses.confirm();
    return record;
  };
  const keys = createKeyCache({ ttlMs, load: async (hash) => confirmedMiss(await backendCall(stores.keys.getKeyByHash(hash))) });
  // No plan record means the default plan, but only from a caught-up read model: an emptied one
  // would give an Enterprise project the default plan's limits (429s) while it is rebuilt.
  const plans = createExpiringCache({ ttlMs, load: async () => (await confirmedMiss(await backendCall(stores.keys.getPlan()))) ?? FALLBACK_PLAN });
  const collections = createExpiringCache({ ttlMs, load: async (slug) => confirmedMiss(await backendCall(readModel.getCollection(slug))) });
  return {
    keys,
    plans,
    collections,
    onMessages(messages) {
      for (const message of messages) {
        if (message.kind === 'key') keys.invalidate(message.keyHash);
        else if (message.kind === 'plan') plans.clear();
        else if (message.kind === 'collection') collections.invalidate(message.slug);
      }
    },
    onGap() {
      keys.clear();
      plans.clear();
      collections.clear();
    },
  };
};
