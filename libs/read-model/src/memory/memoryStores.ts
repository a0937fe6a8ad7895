import type { Stores } from '../stores.js';
import { createMemoryKeyStore } from './memoryKeyStore.js';
import { createMemoryProjectionStore } from './memoryProjectionStore.js';
import { createMemoryReadModel } from './memoryReadModel.js';
import { createMemoryRecords } from './memoryRecords.js';
import { createMemoryUsageStore } from './memoryUsageStore.js';

export interface MemoryStoresOptions {
  /** Clock for lease expiry. */
  readonly now?: () => Date;
}

/**
 * The read-side ports in process memory: the embedded profile's adapter, rebuilt from the event
 * log at start (docs/read-models.md). The projection store writes the records that the read
 * model and the key store read; usage counts are kept apart.
 */
export const createMemoryStores = (options: MemoryStoresOptions = {}): Stores => {
  const records = createMemoryRecords();
  return {
    readModel: createMemoryReadModel(records),
    keys: createMemoryKeyStore(records),
    usage: createMemoryUsageStore(),
    projections: createMemoryProjectionStore(records, options.now ?? (() => new Date())),
    async ping() {},
    async close() {},
  };
};
