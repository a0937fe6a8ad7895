import { expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { compareReadModels, rebuildReadModels } from '@pubstream/projector';
import { connectRedis, createGenerationalRedisStores, createMemoryStores, readActiveGeneration } from '@pubstream/read-model';
import { describeWithBackend, eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import { rebuildGeneration } from '../../apps/cli/src/generationRebuild.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// Issue 11, must show: a rebuild under load. While a writer keeps changing and creating items
// through `pubstream admin` and readers keep reading through `pubstream api`, the rebuild builds a
// new generation, switches the pointer and drops the old one. No read fails, no read sees a
// half-built model (the total never drops below what existed before the rebuild), and afterwards
// the live model equals one built from scratch.

const ORIGIN = 'https://shop.example.com';
const SEEDED = 1_500;

describeWithBackend('kafka', 'projections rebuild under load (distributed processes)', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 1, projectors: 1 });

  it('switches to a rebuilt generation while the API serves reads and the admin writes; nothing fails or goes back', async () => {
    const { cluster, client, redis } = setup;
    await cluster.adminApi('POST', '/admin/collections', { slug: 'load', name: 'Load', sortableFields: [{ name: 'n', type: 'number' }] });
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'readers', type: 'live', allowedDomains: ['shop.example.com'], rateLimit: 50_000 });
    const lines = Array.from({ length: SEEDED }, (_, i) => JSON.stringify({ dataId: `seed-${i}`, data: { n: i } }));
    const imported = await fetch(`${cluster.admin.url}/admin/collections/load/items:import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    });
    expect(imported.status).toBe(200);

    const api = cluster.apis[0]!;
    const read = (path: string) => fetch(`${api.url}${path}`, { headers: { 'X-API-Key': key, Origin: ORIGIN } });
    const totalNow = async (): Promise<number> => ((await (await read('/public/collections/load/data?limit=1')).json()) as { total: number }).total;
    await eventually('the seeded items to be readable', async () => ((await totalNow()) === SEEDED ? true : undefined), 60_000, 100);

    const path = cluster.env.EVENT_STORE_URL!.replace(/^sqlite:/, '');
    const eventStore = createSqliteEventStore(openSqliteDatabase(path));
    let stop = false;
    let writes = 0;
    const failures: string[] = [];
    const totals: number[] = [];
    const writer = (async () => {
      // Creates only (and updates): the number of items never shrinks while it runs.
      for (let n = 0; !stop; n++) {
        await cluster.adminApi('PUT', `/admin/collections/load/items/${n % 2 === 0 ? `seed-${n % SEEDED}` : `live-${n}`}`, { data: { n: SEEDED + n } });
        writes++;
      }
    })();
    const reader = async () => {
      for (let n = 0; !stop; n++) {
        const [page, item] = await Promise.all([read(`/public/collections/load/data?limit=20&page=${1 + (n % 50)}&sort=n`), read(`/public/data/seed-${(n * 37) % SEEDED}`)]);
        if (page.status !== 200) failures.push(`page ${page.status}`);
        else totals.push(((await page.json()) as { total: number }).total);
        if (item.status !== 200) failures.push(`item ${item.status}`);
        else await item.arrayBuffer();
      }
    };
    const readers = [reader(), reader(), reader()];

    try {
      await sleep(300);
      const before = await readActiveGeneration(client, 'ps');
      const writesBefore = writes;
      const result = await rebuildGeneration({ client, eventStore, batchSize: 50, settleMs: 2_500 });
      expect(result.switched).toBe(true);
      expect(result.previous).toBe(before);
      expect(await readActiveGeneration(client, 'ps')).toBe(result.generation);
      // The old generation is gone (only the pointer and usage counts stay under the root).
      expect((await client.keys('ps:{i:*')).length).toBe(0);
      await sleep(1_500);
      stop = true;
      await Promise.all([writer, ...readers]);
      console.log(`[rebuild under load] ${result.events} events at ${Math.round(result.eventsPerSecond)}/s; ${writes - writesBefore}+ writes and ${totals.length} page reads during the run`);
      expect(writes - writesBefore).toBeGreaterThan(0);

      expect(failures).toEqual([]);
      expect(totals.length).toBeGreaterThan(10);
      expect(Math.min(...totals)).toBeGreaterThanOrEqual(SEEDED);

      // The projector followed the pointer: it catches up on the new generation, which then
      // equals a model built from scratch.
      const live = await createGenerationalRedisStores(await connectRedis(redis.url, () => {}));
      try {
        expect(live.activeGeneration()).toBe(result.generation);
        const head = await eventStore.headPosition();
        await eventually('the projector to catch up on the new generation', async () => ((await live.projections.getCheckpoint('projector')) >= head ? true : undefined), 30_000, 100);
        const fresh = createMemoryStores();
        await rebuildReadModels({ eventStore, target: fresh });
        expect(await compareReadModels(live, fresh)).toEqual([]);
        expect(await totalNow()).toBe(await fresh.readModel.countItems('load'));
      } finally {
        await live.close();
      }
    } finally {
      stop = true;
      await Promise.allSettled([writer, ...readers]);
      await eventStore.close();
    }
  }, 120_000);
});
