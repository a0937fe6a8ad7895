import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContractOptions, UsageStoreSubject } from './contractFixtures.js';

/** The behaviour every UsageStore adapter must show (docs/read-models.md): totals, last use, series. */
export const testUsageStoreContract = <S extends UsageStoreSubject>(name: string, factory: () => Promise<S>, options: ContractOptions<S> = {}): void => {
  describe(`usage store contract: ${name}`, () => {
    let s: S;
    beforeEach(async () => {
      s = await factory();
    });
    afterEach(async () => {
      await options.teardown?.(s);
    });
    describe('usage', () => {
      it('adds request counts and keeps the latest use', async () => {
        const at1 = new Date(Date.UTC(2026, 2, 31, 23, 30));
        const at2 = new Date(Date.UTC(2026, 3, 1, 0, 10));
        await s.usage.recordUsage([{ keyId: 'k1', at: at2, count: 3 }, { keyId: 'k1', at: at1, count: 2 }, { keyId: 'k2', at: at1, count: 1 }]);
        await s.usage.recordUsage([{ keyId: 'k1', at: at1, count: 5 }]);
        expect(await s.usage.getUsage(['k1', 'k2', 'none'])).toEqual([
          { keyId: 'k1', requestCount: 10, lastUsedAt: at2.toISOString() },
          { keyId: 'k2', requestCount: 1, lastUsedAt: at1.toISOString() },
          { keyId: 'none', requestCount: 0, lastUsedAt: null },
        ]);
      });

      it('answers series per UTC hour, day and month, zero-filled', async () => {
        await s.usage.recordUsage([
          { keyId: 'k', at: new Date(Date.UTC(2026, 2, 31, 22, 59, 59)), count: 1 },
          { keyId: 'k', at: new Date(Date.UTC(2026, 2, 31, 23, 0)), count: 2 },
          { keyId: 'k', at: new Date(Date.UTC(2026, 3, 1, 1, 0)), count: 4 },
          { keyId: 'other', at: new Date(Date.UTC(2026, 3, 1, 1, 0)), count: 100 },
        ]);
        const from = new Date(Date.UTC(2026, 2, 31, 22, 30));
        const to = new Date(Date.UTC(2026, 3, 1, 1, 5));
        expect(await s.usage.getUsageSeries('k', 'hour', from, to)).toEqual([
          { bucket: '2026-03-31T22', count: 1 },
          { bucket: '2026-03-31T23', count: 2 },
          { bucket: '2026-04-01T00', count: 0 },
          { bucket: '2026-04-01T01', count: 4 },
        ]);
        expect(await s.usage.getUsageSeries('k', 'day', from, to)).toEqual([
          { bucket: '2026-03-31', count: 3 },
          { bucket: '2026-04-01', count: 4 },
        ]);
        expect(await s.usage.getUsageSeries('k', 'month', new Date(Date.UTC(2026, 1, 15)), to)).toEqual([
          { bucket: '2026-02', count: 0 },
          { bucket: '2026-03', count: 3 },
          { bucket: '2026-04', count: 4 },
        ]);
        expect(await s.usage.getUsageSeries('k', 'day', to, from)).toEqual([]);
      });
    });
  });
};
