import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReadModelOp } from '../projectionStore.js';
import { cp, keyRecord, type ContractOptions, type KeyStoreSubject } from './contractFixtures.js';

/**
 * The behaviour every KeyStore adapter must show (docs/read-models.md): keys by hash and by id
 * under their version guard, deletes for good, the plan. Written through the same adapter's
 * projection store.
 */
export const testKeyStoreContract = <S extends KeyStoreSubject>(name: string, factory: () => Promise<S>, options: ContractOptions<S> = {}): void => {
  describe(`key store contract: ${name}`, () => {
    let s: S;
    beforeEach(async () => {
      s = await factory();
    });
    afterEach(async () => {
      await options.teardown?.(s);
    });
    describe('keys and plan', () => {
      it('finds a key by hash and by id, follows updates, forgets it on delete for good', async () => {
        const k1 = keyRecord('key1', 1, 'first');
        expect(await s.projections.apply([{ kind: 'key.put', key: k1 }, { kind: 'key.put', key: keyRecord('key2', 1) }], cp(1))).toEqual([true, true]);
        expect(await s.keys.getKeyByHash('hash-key1')).toEqual(k1);
        expect(await s.keys.getKey('key1')).toEqual(k1);
        expect(await s.keys.getKeyByHash('hash-unknown')).toBeNull();
        const k1b = { ...keyRecord('key1', 2, 'renamed'), allowedDomains: ['*.example.com'] };
        expect(await s.projections.apply([{ kind: 'key.put', key: k1b }, { kind: 'key.put', key: k1 }], cp(2))).toEqual([true, false]);
        expect(await s.keys.getKeyByHash('hash-key1')).toEqual(k1b);
        expect((await s.keys.listKeys()).map((k) => k.keyId).sort()).toEqual(['key1', 'key2']);
        const deletion: ReadModelOp = { kind: 'key.delete', keyId: 'key1', keyHash: 'hash-key1', version: 3 };
        expect(await s.projections.apply([deletion], cp(3))).toEqual([true]);
        expect(await s.keys.getKeyByHash('hash-key1')).toBeNull();
        expect(await s.keys.getKey('key1')).toBeNull();
        expect(await s.projections.apply([{ kind: 'key.put', key: k1b }, deletion], cp(3))).toEqual([false, false]);
        expect(await s.keys.getKeyByHash('hash-key1')).toBeNull();
        expect((await s.keys.listKeys()).map((k) => k.keyId)).toEqual(['key2']);
      });

      it('stores the plan under its version guard', async () => {
        expect(await s.keys.getPlan()).toBeNull();
        const plan = { plan: 'pro' as const, monthlyQuota: 1000, version: 2 };
        expect(await s.projections.apply([{ kind: 'plan.put', plan }, { kind: 'plan.put', plan: { plan: 'free', monthlyQuota: null, version: 1 } }], cp(1))).toEqual([true, false]);
        expect(await s.keys.getPlan()).toEqual(plan);
      });
    });
  });
};
