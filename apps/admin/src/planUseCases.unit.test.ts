import type { KeyRecord } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createCurrentPlan, createPlanUseCases, keysAboveMaximum } from './planUseCases.js';
import { createWriteWorld } from './testing/writeWorld.js';

const keyRecord = (name: string, rateLimit: number): KeyRecord => ({ keyId: name, name, type: 'live', keyHash: 'h', last4: 'abcd', allowedDomains: [], rateLimit, createdAt: '', version: 0 });

const setup = (listKeys: () => Promise<KeyRecord[]> = async () => []) => {
  const world = createWriteWorld();
  const useCases = createPlanUseCases({ currentPlan: createCurrentPlan(world.commands), write: world.write, keys: { listKeys } });
  return { world, useCases };
};

describe('plan use cases', () => {
  it('switches the plan and keeps the monthly quota when none is given', async () => {
    const { useCases } = setup();
    await useCases.setPlan({ plan: 'pro', monthlyQuota: 1_000 });
    expect(await useCases.setPlan({ plan: 'enterprise' })).toMatchObject({ value: { plan: 'enterprise', monthlyQuota: 1_000, limits: { reactive: true } } });
    expect(await useCases.getPlan()).toMatchObject({ plan: 'enterprise', monthlyQuota: 1_000 });
  });

  it('refuses a downgrade below existing keys (409, nothing written), and is 503 when the keys cannot be read', async () => {
    const { world, useCases } = setup(async () => [keyRecord('Fast', 50_000)]);
    await expect(useCases.setPlan({ plan: 'free' })).rejects.toMatchObject({ status: 409 });
    const down = setup(async () => Promise.reject(new Error('down')));
    await expect(down.useCases.setPlan({ plan: 'free' })).rejects.toMatchObject({ status: 503 });
    expect([...world.log, ...down.world.log]).toEqual([]);
  });
});

describe('keysAboveMaximum', () => {
  it('names up to five of the keys above the plan maximum, and counts them all', () => {
    const keys = Array.from({ length: 7 }, (_, index) => ({ name: `k${index}`, rateLimit: 200 }));
    expect(keysAboveMaximum(keys, 'free')?.message).toBe("7 key(s) have a rate limit above the free plan's maximum of 100 (k0, k1, k2, k3, k4); lower them first");
    expect(keysAboveMaximum([{ name: 'slow', rateLimit: 100 }], 'free')).toBeNull();
  });
});
