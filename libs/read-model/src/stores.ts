import type { ChangeHistory } from './changeHistory.js';
import type { KeyStore } from './keyStore.js';
import type { ProjectionStore } from './projectionStore.js';
import type { ReadModel } from './readModel.js';
import type { UsageStore } from './usageStore.js';

/**
 * The four read-side ports of one adapter over one backend (docs/read-models.md). Built once per
 * process (apps/cli/src/adapters.ts), which hands each app the ports it uses: the API
 * `readModel`, `keys` and `usage`; the admin the reads, `keys`, `usage` and the projector's
 * checkpoint; the projector `projections` and the reads its projections load.
 */
export interface Stores {
  readonly readModel: ReadModel;
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly projections: ProjectionStore;
  /** The change history (positions, resumes, the changes feed), written through `projections`. */
  readonly history: ChangeHistory;
  /** Readiness: resolves when the backend answers. */
  ping(): Promise<void>;
  /** Closes the backend connection (a Redis adapter closes the client it was given). */
  close(): Promise<void>;
}
