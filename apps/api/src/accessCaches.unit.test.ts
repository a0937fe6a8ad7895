import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '@pubstream/domain';
import type { CollectionRecord, KeyRecord, MissConfirmation, PlanRecord } from '@pubstream/read-model';
import { createAccessCaches } from './accessCaches.js';

const caughtUp: MissConfirmation = { confirm: async () => {} };

/** A read model that counts its lookups. */
function countingReadModel() {
  const loads = { keys: 0, plans: 0, collections: 0 };
  const readModel = {
    getKeyByHash: async (): Promise<KeyRecord | null> => (loads.keys++, null),
    getPlan: async (): Promise<PlanRecord | null> => (loads.plans++, null),
    getCollection: async (): Promise<CollectionRecord | null> => (loads.collections++, null),
  };
  return { readModel, loads };
}

describe('createAccessCaches', () => {
  it('given repeated lookups, then the read model is asked once; before any plan, the default plan', async () => {
    const { readModel, loads } = countingReadModel();
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000, caughtUp);
    await caches.keys.get('h1');
    await caches.keys.get('h1');
    expect((await caches.plans.get('plan')).plan).toBe('business');
    await caches.plans.get('plan');
    expect(loads).toEqual({ keys: 1, plans: 1, collections: 0 });
  });

  it('given change messages, then only what they are about is read again', async () => {
    const { readModel, loads } = countingReadModel();
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000, caughtUp);
    await Promise.all([caches.keys.get('h1'), caches.keys.get('h2'), caches.plans.get('plan'), caches.collections.get('news'), caches.collections.get('blog')]);
    caches.onMessages([
      { kind: 'key', action: 'delete', keyId: 'k1', keyHash: 'h1', version: 2, position: 10 },
      { kind: 'collection', action: 'update', slug: 'news', version: 1, position: 11 },
    ]);
    await Promise.all([caches.keys.get('h1'), caches.keys.get('h2'), caches.plans.get('plan'), caches.collections.get('news'), caches.collections.get('blog')]);
    expect(loads).toEqual({ keys: 3, plans: 1, collections: 3 });
    caches.onMessages([{ kind: 'plan', action: 'update', version: 3, position: 12 }]);
    await caches.plans.get('plan');
    expect(loads.plans).toBe(2);
  });

  it('given a gap in the change stream, then everything is read again', async () => {
    const { readModel, loads } = countingReadModel();
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000, caughtUp);
    await Promise.all([caches.keys.get('h1'), caches.plans.get('plan'), caches.collections.get('news')]);
    caches.onGap();
    await Promise.all([caches.keys.get('h1'), caches.plans.get('plan'), caches.collections.get('news')]);
    expect(loads).toEqual({ keys: 2, plans: 2, collections: 2 });
  });

  it('given a read model that is not caught up, then a miss (key, collection, no plan) is a 503 and is not cached; once caught up it is cached', async () => {
    const { readModel, loads } = countingReadModel();
    let rebuilding = true;
    const misses: MissConfirmation = {
      confirm: async () => {
        if (rebuilding) throw new ServiceUnavailableError('The data is being rebuilt; try again shortly');
      },
    };
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000, misses);
    await expect(caches.keys.get('h1')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(caches.collections.get('news')).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(caches.plans.get('plan')).rejects.toBeInstanceOf(ServiceUnavailableError);
    rebuilding = false;
    expect((await caches.plans.get('plan')).plan).toBe('business');
    // Read again (the failed loads were not kept), now trusted and cached.
    expect(await caches.keys.get('h1')).toBeNull();
    expect(await caches.collections.get('news')).toBeNull();
    await caches.keys.get('h1');
    expect(loads).toMatchObject({ keys: 2, collections: 2 });
  });
});
