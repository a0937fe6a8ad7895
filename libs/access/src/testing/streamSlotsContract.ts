import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { StreamSlots } from '../streamSlots.js';

export interface StreamSlotsWorld {
  /** A new API node's view of the shared slots, whose slots live `ttlMs` without a refresh. */
  node(ttlMs: number): StreamSlots;
  /** Lets `ms` pass (a fake clock, or a real wait). */
  advance(ms: number): Promise<void>;
}

/**
 * The contract every StreamSlots adapter passes (docs/subscriptions.md, "Caps"): the cap holds
 * across nodes, a release frees a slot, a node that stops refreshing (a crash) loses its slots after
 * the TTL while a node that keeps refreshing keeps them. `ttlMs` is what the expiry cases use: real
 * adapters need one long enough for a loaded machine to refresh in time.
 */
export const testStreamSlotsContract = (name: string, setup: () => StreamSlotsWorld, options: { ttlMs: number }): void => {
  const key = (): string => `key-${randomUUID()}`;
  const { ttlMs } = options;

  describe(`${name}: StreamSlots contract`, () => {
    it('given two nodes, then the cap holds across both, and a release frees one slot', async () => {
      const world = setup();
      const [a, b] = [world.node(60_000), world.node(60_000)];
      const keyId = key();
      expect(await a.acquire(keyId, 's1', 3)).toBe(true);
      expect(await b.acquire(keyId, 's2', 3)).toBe(true);
      expect(await a.acquire(keyId, 's3', 3)).toBe(true);
      expect(await b.acquire(keyId, 's4', 3)).toBe(false);
      expect(await a.acquire(keyId, 's4', 3)).toBe(false);
      expect(await a.count(keyId)).toBe(3);
      await a.release(keyId, 's1');
      expect(await b.acquire(keyId, 's4', 3)).toBe(true);
      expect(await b.count(keyId)).toBe(3);
      // Other keys are not affected.
      expect(await a.acquire(key(), 's1', 1)).toBe(true);
    });

    it('given a slot already held, then acquiring it again takes no second slot; releasing twice or an unknown one changes nothing', async () => {
      const world = setup();
      const a = world.node(60_000);
      const keyId = key();
      expect(await a.acquire(keyId, 's1', 1)).toBe(true);
      expect(await a.acquire(keyId, 's1', 1)).toBe(true);
      expect(await a.count(keyId)).toBe(1);
      await a.release(keyId, 's1');
      await a.release(keyId, 's1');
      await a.release(keyId, 'never');
      expect(await a.count(keyId)).toBe(0);
      expect(await a.acquire(keyId, 's2', 0)).toBe(false);
    });

    it('given a node that stops refreshing (it crashed), then its slots expire after the TTL while a refreshing node keeps its own', async () => {
      const world = setup();
      const [crashed, alive] = [world.node(ttlMs), world.node(ttlMs)];
      const keyId = key();
      expect(await crashed.acquire(keyId, 'c1', 3)).toBe(true);
      expect(await crashed.acquire(keyId, 'c2', 3)).toBe(true);
      expect(await alive.acquire(keyId, 'a1', 3)).toBe(true);
      expect(await alive.acquire(keyId, 'a2', 3)).toBe(false);
      // Well past the TTL, refreshing the live node every third of it.
      for (let step = 0; step < 5; step++) {
        await world.advance(ttlMs / 3);
        await alive.refresh();
      }
      expect(await alive.count(keyId)).toBe(1);
      expect(await alive.acquire(keyId, 'a2', 3)).toBe(true);
      expect(await alive.acquire(keyId, 'a3', 3)).toBe(true);
      expect(await alive.acquire(keyId, 'a4', 3)).toBe(false);
    });

    it('given a full key whose slots expired, then the next acquire gets a place without a count first', async () => {
      const world = setup();
      const [crashed, alive] = [world.node(ttlMs), world.node(ttlMs)];
      const keyId = key();
      expect(await crashed.acquire(keyId, 'c1', 2)).toBe(true);
      expect(await crashed.acquire(keyId, 'c2', 2)).toBe(true);
      expect(await alive.acquire(keyId, 'a1', 2)).toBe(false);
      await world.advance(ttlMs * 2);
      expect(await alive.acquire(keyId, 'a1', 2)).toBe(true);
      expect(await alive.acquire(keyId, 'a2', 2)).toBe(true);
      expect(await alive.acquire(keyId, 'a3', 2)).toBe(false);
    });
  });
};
