import { ADMIN_TOKEN } from './adminHttp.js';
import type { DistributedCluster } from './distributedCluster.js';

/** What a fault scenario reads: a live key, an existing collection and an existing item. */
export interface FaultSeed {
  readonly key: string;
  readonly slug: string;
  readonly dataId: string;
  /** The item's data as written. */
  readonly data: { readonly n: number };
}

/**
 * Writes a Business plan (streams allowed), a collection of `items` imported items, then the
 * probe item and the key, last: after Redis loses its data, the projector's replay reaches them
 * only at its end, so a scenario that reads them sees the whole rebuild window.
 */
export const seedFaultScenario = async (cluster: Pick<DistributedCluster, 'adminApi' | 'admin'>, items: number): Promise<FaultSeed> => {
  const slug = 'things';
  await cluster.adminApi('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
  await cluster.adminApi('POST', '/admin/collections', { slug, name: 'Things' });
  const lines = Array.from({ length: items }, (_, i) => JSON.stringify({ dataId: `thing-${i}`, data: { i } })).join('\n');
  const imported = await fetch(`${cluster.admin.url}/admin/collections/${slug}/items:import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    body: lines,
  });
  if (!imported.ok) throw new Error(`import answered ${imported.status}: ${await imported.text()}`);
  await imported.text();
  const data = { n: 1 };
  await cluster.adminApi('PUT', `/admin/collections/${slug}/items/probe`, { data });
  const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'fault-reader', type: 'live', rateLimit: 50_000 });
  return { key, slug, dataId: 'probe', data };
};
