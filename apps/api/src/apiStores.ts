import type { ChangeHistory, KeyStore, ReadModel, UsageStore } from '@pubstream/read-model';

/**
 * The ports the public API uses (a `Stores` record fits): the public reads; key records by hash
 * and the plan, for the access checks; usage counts, which it writes in batches; the backend's
 * ping for /readyz.
 */
export interface ApiStores {
  readonly readModel: ReadModel;
  /** The change history: the changes feed (and the stream's resumes). */
  readonly history: ChangeHistory;
  readonly keys: Pick<KeyStore, 'getKeyByHash' | 'getPlan'>;
  readonly usage: Pick<UsageStore, 'recordUsage'>;
  ping(): Promise<void>;
}
