import type { AdminService } from '@pubstream/admin';

export const DEMO_COLLECTION = 'demo';

export interface DemoSeed {
  readonly collection: string;
  /** The demo test key, shown once. */
  readonly key: string;
}

const DEMO_ITEMS = [
  { dataId: 'welcome', data: { title: 'Welcome to Pubstream', price: 0, tags: ['intro'] } },
  { dataId: 'coffee-beans', data: { title: 'Coffee beans, 1 kg', price: 24.5, tags: ['shop'] } },
  { dataId: 'green-tea', data: { title: 'Green tea, 100 g', price: 8.9, tags: ['shop'] } },
  { dataId: 'teapot', data: { title: 'Cast iron teapot', price: 39, tags: ['shop', 'kitchen'] } },
];

/**
 * The first-start demo: a small collection and a test key, so `curl` works at once. Written
 * through the admin service like any operator write (events in the log, nothing special).
 */
export const seedDemo = async (service: AdminService): Promise<DemoSeed> => {
  await service.createCollection({ slug: DEMO_COLLECTION, name: 'Demo', sortableFields: [{ name: 'price', type: 'number' }] });
  for (const item of DEMO_ITEMS) await service.putItem(DEMO_COLLECTION, item.dataId, item.data);
  const created = await service.createKey({ name: 'Demo test key', type: 'test', allowedDomains: [] });
  if (created.value.key === null) throw new Error('The demo key was not created');
  return { collection: DEMO_COLLECTION, key: created.value.key };
};
