import { describe, expect, it } from 'vitest';
import type { Stores } from '../stores.js';
import type { ReadModelContractOptions } from './contractFixtures.js';
import { testKeyStoreContract } from './keyStoreContract.js';
import { testProjectionStoreContract } from './projectionStoreContract.js';
import { testReadModelContract } from './readModelContract.js';
import { testUsageStoreContract } from './usageStoreContract.js';

/**
 * Every port's contract against one adapter's stores, plus the readiness ping: what each adapter's
 * test file runs (emmett's shape: one suite per port, quirks as options).
 */
export const testStoresContract = (name: string, factory: () => Promise<Stores>, options: ReadModelContractOptions<Stores> = {}): void => {
  testProjectionStoreContract(name, factory, options);
  testReadModelContract(name, factory, options);
  testKeyStoreContract(name, factory, options);
  testUsageStoreContract(name, factory, options);

  describe(`stores: ${name}`, () => {
    it('answers ping', async () => {
      const stores = await factory();
      await expect(stores.ping()).resolves.toBeUndefined();
      await options.teardown?.(stores);
    });
  });
};
