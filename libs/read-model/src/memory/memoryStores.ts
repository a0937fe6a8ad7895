import type { Stores } from '../stores.js';
import { createMemoryHistory } from './memoryHistory.js';
import { createMemoryKeyStore } from './memoryKeyStore.js';
import { createMemoryProjectionState, createMemoryProjectionStore, type MemoryProjectionState } from './memoryProjectionStore.js';
import { createMemoryReadModel } from './memoryReadModel.js';
import { createMemoryRecords, type MemoryRecords } from './memoryRecords.js';
import { createMemoryUsageStore } from './memoryUsageStore.js';

export interface MemoryStoresOptions {
  /** Clock for lease expiry and the history's floor. */
  readonly now?: () => Date;
  /** The state to keep the data in (tests pass their own to empty it, as a lost Redis would be). */
  readonly state?: MemoryStoresState;
}

/** Everything the memory stores hold but the usage counts. */
export interface MemoryStoresState {
  readonly records: MemoryRecords;
  readonly projection: MemoryProjectionState;
}

export const createMemoryStoresState = (): MemoryStoresState => ({ records: createMemoryRecords(), projection: createMemoryProjectionState() });

/**
 * The read-side ports in process memory: the embedded profile's adapter, rebuilt from the event
 * log at start (docs/read-models.md). The projection store writes the records that the read
 * model and the key store read; usage counts are kept apart.
 */
export const createMemoryStores = (options: MemoryStoresOptions = {}): Stores => {
  const { records, projection } = options.state ?? createMemoryStoresState();
  const now = options.now ?? (() => new Date());
  return {
    readModel: createMemoryReadModel(records, projection.checkpoints),
    history: createMemoryHistory(projection.history, records, projection.checkpoints, now),
    keys: createMemoryKeyStore(records),
    usage: createMemoryUsageStore(),
    projections: createMemoryProjectionStore(records, now, projection),
    async ping() {},
    async close() {},
  };
};
