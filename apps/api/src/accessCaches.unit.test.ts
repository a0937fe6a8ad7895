import { describe, expect, it } from 'vitest';
import type { CollectionRecord, KeyRecord, PlanRecord } from '@pubstream/read-model';
import { createAccessCaches } from './accessCaches.js';

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
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000);
    await caches.keys.get('h1');
    await caches.keys.get('h1');
    expect((await caches.plans.get('plan')).plan).toBe('business');
    await caches.plans.get('plan');
    expect(loads).toEqual({ keys: 1, plans: 1, collections: 0 });
  });

  it('given change messages, then only what they are about is read again', async () => {
    const { readModel, loads } = countingReadModel();
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000);
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
    const caches = createAccessCaches({ readModel, keys: readModel }, 60_000);
    await Promise.all([caches.keys.get('h1'), caches.plans.get('plan'), caches.collections.get('news')]);
    caches.onGap();
    await Promise.all([caches.keys.get('h1'), caches.plans.get('plan'), caches.collections.get('news')]);
    expect(loads).toEqual({ keys: 2, plans: 2, collections: 2 });
  });
});
