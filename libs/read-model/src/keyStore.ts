import type { KeyRecord, PlanRecord } from './records.js';

/**
 * What the access checks read (docs/read-models.md): API key records by hash (every keyed request)
 * and by id (the admin, the projector's fold), the list of keys, and the project's plan (rate
 * limits, quotas, reactive mode). Written by the projector through the ProjectionStore.
 */
export interface KeyStore {
  getKeyByHash(keyHash: string): Promise<KeyRecord | null>;
  getKey(keyId: string): Promise<KeyRecord | null>;
  /** Every key, ordered by keyId. */
  listKeys(): Promise<KeyRecord[]>;
  /** Null until the first PlanChanged is projected (the default plan applies). */
  getPlan(): Promise<PlanRecord | null>;
}
