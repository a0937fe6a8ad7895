import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FencedError } from '../projectionStore.js';
import { cp, itemRecord, keyRecord, put, sleep, type ContractOptions, type ProjectionStoreSubject } from './contractFixtures.js';

/**
 * The behaviour every ProjectionStore adapter must show (docs/read-models.md): checkpoints that
 * never move back, the caught-up marker set only once the checkpoint has reached the position,
 * one lease holder at a time with growing tokens, and fencing: a write with a stale lease (taken
 * over, wiped, or another holder's with the same token number) is refused and writes nothing
 * (seen through the same adapter's reads).
 */
export const testProjectionStoreContract = <S extends ProjectionStoreSubject>(name: string, factory: () => Promise<S>, options: ContractOptions<S> = {}): void => {
  describe(`projection store contract: ${name}`, () => {
    let s: S;
    beforeEach(async () => {
      s = await factory();
    });
    afterEach(async () => {
      await options.teardown?.(s);
    });
    describe('checkpoints', () => {
      it('starts at 0, stores the position per projection, never moves back', async () => {
        expect(await s.projections.getCheckpoint('items')).toBe(0);
        await s.projections.apply([], { projection: 'items', position: 42 });
        await s.projections.apply([], { projection: 'keys', position: 7 });
        expect(await s.projections.getCheckpoint('items')).toBe(42);
        expect(await s.projections.getCheckpoint('keys')).toBe(7);
        await s.projections.apply([put(itemRecord('a', 'c', 1))], { projection: 'items', position: 40 });
        expect(await s.projections.getCheckpoint('items')).toBe(42);
        expect(await s.readModel.getItem('a')).not.toBeNull();
      });
    });

    describe('caught-up marker (docs/read-models.md, "Unknown is not missing")', () => {
      it('is not set on an empty store, and only once the checkpoint has reached the position asked for', async () => {
        expect(await s.readModel.isCaughtUp()).toBe(false);
        // A projector that has not noticed the store was emptied asks with the position it had reached.
        expect(await s.projections.markCaughtUp({ projection: 'items', position: 5 })).toBe(false);
        expect(await s.readModel.isCaughtUp()).toBe(false);
        await s.projections.apply([put(itemRecord('a', 'c', 1))], cp(3));
        expect(await s.projections.markCaughtUp({ projection: 'items', position: 5 })).toBe(false);
        expect(await s.projections.markCaughtUp({ projection: 'other', position: 3 })).toBe(false);
        expect(await s.readModel.isCaughtUp()).toBe(false);
        await s.projections.apply([], cp(5));
        expect(await s.projections.markCaughtUp({ projection: 'items', position: 5 })).toBe(true);
        expect(await s.readModel.isCaughtUp()).toBe(true);
        // Once set it stays (a later lag does not make "not found" untrustworthy: it is read-your-writes' business).
        expect(await s.projections.markCaughtUp({ projection: 'items', position: 9 })).toBe(true);
        expect(await s.readModel.isCaughtUp()).toBe(true);
      });

      it('is set for an empty log (position 0) at once', async () => {
        expect(await s.projections.markCaughtUp({ projection: 'items', position: 0 })).toBe(true);
        expect(await s.readModel.isCaughtUp()).toBe(true);
      });
    });

    describe('leases and fencing', () => {
      it('gives the lease to one holder at a time, with strictly increasing tokens', async () => {
        const a = await s.projections.acquireLease('projector', 'a', 10_000);
        expect(a).toMatchObject({ name: 'projector', holder: 'a' });
        expect(await s.projections.acquireLease('projector', 'b', 10_000)).toBeNull();
        expect(await s.projections.acquireLease('other', 'b', 10_000)).not.toBeNull();
        expect(await s.projections.renewLease(a!, 10_000)).toBe(true);
        await s.projections.releaseLease(a!);
        const b = await s.projections.acquireLease('projector', 'b', 10_000);
        expect(b!.token).toBeGreaterThan(a!.token);
        expect(await s.projections.renewLease(a!, 10_000)).toBe(false);
        const b2 = await s.projections.acquireLease('projector', 'b', 10_000);
        expect(b2!.token).toBeGreaterThan(b!.token);
      });

      it('lets another holder take an expired lease, and the old holder cannot renew it', async () => {
        const a = await s.projections.acquireLease('projector', 'a', 100);
        await sleep(250);
        const b = await s.projections.acquireLease('projector', 'b', 10_000);
        expect(b!.token).toBeGreaterThan(a!.token);
        expect(await s.projections.renewLease(a!, 10_000)).toBe(false);
      });

      it('refuses writes with a stale lease (FencedError) and writes nothing', async () => {
        const a = await s.projections.acquireLease('projector', 'a', 10_000);
        expect(await s.projections.apply([put(itemRecord('x', 'c', 1))], cp(1), { lease: a! })).toEqual([true]);
        await s.projections.releaseLease(a!);
        const b = await s.projections.acquireLease('projector', 'b', 10_000);
        await expect(s.projections.apply([put(itemRecord('y', 'c', 1)), { kind: 'key.put', key: keyRecord('k', 1) }], cp(2), { lease: a! })).rejects.toBeInstanceOf(FencedError);
        expect(await s.readModel.getItem('y')).toBeNull();
        expect(await s.keys.getKey('k')).toBeNull();
        expect(await s.projections.getCheckpoint('items')).toBe(1);
        expect(await s.projections.apply([put(itemRecord('y', 'c', 1))], cp(2), { lease: b! })).toEqual([true]);
        expect(await s.projections.getCheckpoint('items')).toBe(2);
      });

      testFencingCases(() => s, options);
    });
  });
};

/**
 * Fencing when the lease changed hands or vanished: by takeover, by another holder presenting the
 * same token number, and (adapters with a `wipe`) by the backend losing its data (issue 23).
 */
const testFencingCases = <S extends ProjectionStoreSubject>(s: () => S, options: ContractOptions<S>): void => {
it('fences off a holder whose lease was taken over, at its next renewal or write', async () => {
  const a = await s().projections.acquireLease('projector', 'a', 100);
  await sleep(250);
  const b = await s().projections.acquireLease('projector', 'b', 10_000);
  await expect(s().projections.apply([put(itemRecord('late', 'c', 1))], cp(5), { lease: a! })).rejects.toBeInstanceOf(FencedError);
  await expect(s().projections.apply([], cp(6), { lease: a! })).rejects.toBeInstanceOf(FencedError);
  expect(await s().projections.renewLease(a!, 10_000)).toBe(false);
  // Its release does not free the new holder's lease.
  await s().projections.releaseLease(a!);
  expect(await s().projections.acquireLease('projector', 'a', 10_000)).toBeNull();
  expect(await s().readModel.getItem('late')).toBeNull();
  expect(await s().projections.getCheckpoint('items')).toBe(0);
  expect(await s().projections.renewLease(b!, 10_000)).toBe(true);
});

it('compares the holder as well as the token: another holder with the same token number is refused', async () => {
  const b = await s().projections.acquireLease('projector', 'b', 10_000);
  const impostor = { ...b!, holder: 'a' };
  expect(await s().projections.renewLease(impostor, 10_000)).toBe(false);
  await expect(s().projections.apply([put(itemRecord('z', 'c', 1))], cp(3), { lease: impostor })).rejects.toBeInstanceOf(FencedError);
  await s().projections.releaseLease(impostor);
  expect(await s().readModel.getItem('z')).toBeNull();
  expect(await s().projections.renewLease(b!, 10_000)).toBe(true);
  expect(await s().projections.acquireLease('projector', 'a', 10_000)).toBeNull();
});

it('after the backend lost its data, the old holder is fenced off and tokens never restart below those issued', async (context) => {
  if (!options.wipe) return context.skip('this adapter cannot lose its data without losing its process');
  const a = await s().projections.acquireLease('projector', 'a', 10_000);
  expect(await s().projections.apply([put(itemRecord('x', 'c', 1))], cp(1), { lease: a! })).toEqual([true]);
  await options.wipe(s());
  const b = await s().projections.acquireLease('projector', 'b', 10_000);
  expect(b!.token).toBeGreaterThan(a!.token);
  expect(await s().projections.renewLease(a!, 10_000)).toBe(false);
  await expect(s().projections.apply([put(itemRecord('x', 'c', 2))], cp(2), { lease: a! })).rejects.toBeInstanceOf(FencedError);
  expect(await s().readModel.getItem('x')).toBeNull();
  expect(await s().projections.apply([put(itemRecord('x', 'c', 1))], cp(1), { lease: b! })).toEqual([true]);
  expect(await s().projections.getCheckpoint('items')).toBe(1);
});
};
