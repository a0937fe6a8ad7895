import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { compareReadModels, rebuildReadModels } from '@pubstream/projector';
import { createRedisStores, type Stores } from '@pubstream/read-model';
import { describeWithBackend, eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import type { NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// Issue 5: `pubstream projector` SIGKILLed at random moments during a 20,000-line NDJSON import
// through `pubstream admin`, restarted each time. Afterwards the live Redis read model must equal
// one rebuilt from the log into a fresh namespace: every item, the collection, its pages.

const LINES = 20_000;
const DISTINCT = 16_000; // the last 4,000 lines update items written earlier in the same import
const KILLS = 5;

describeWithBackend('kafka', 'projector killed during a 20,000-item import', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 0, projectors: 1 });

  it('the Redis read model equals a fresh rebuild after 5 SIGKILLs of the projector', async () => {
    const { cluster, client } = setup;
    await cluster.adminApi('POST', '/admin/collections', { slug: 'bulk', name: 'Bulk', sortableFields: [{ name: 'price', type: 'number' }, { name: 'label', type: 'string' }] });
    const lines = Array.from({ length: LINES }, (_, i) => {
      const n = i % DISTINCT;
      return JSON.stringify({ dataId: `item-${n}`, data: { price: (n * 7919 + i) % 1000, label: `L${(n * 31 + i) % 97}`, round: i < DISTINCT ? 1 : 2 } });
    });
    const importing = fetch(`${cluster.admin.url}/admin/collections/bulk/items:import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: `${lines.join('\n')}\n`,
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

    const live = createRedisStores(client);
    const path = cluster.env.EVENT_STORE_URL!.replace(/^sqlite:/, '');
    const eventStore = createSqliteEventStore(openSqliteDatabase(path));
    try {
      let imported = false;
      void importing.then(() => (imported = true), () => (imported = true));
      let current: NodeProcess = cluster.projectors[0]!;
      const kills: { applied: number; head: number }[] = [];
      while (kills.length < KILLS) {
        // A random moment while this projector is active (it took the lease once the dead one's
        // expired) and still has work: the import is running or the log is ahead of it.
        await eventually('the projector to be active', async () => (current.output().includes('"msg":"projector active"') ? true : undefined), 30_000, 20);
        // ... and has written since the previous kill, so that each kill interrupts real progress.
        const before = kills.at(-1)?.applied ?? 0;
        let [applied, head] = await Promise.all([live.projections.getCheckpoint('projector'), eventStore.headPosition()]);
        while (applied <= before || (applied >= head && !imported)) {
          if (imported && applied >= head) break;
          await sleep(10);
          [applied, head] = await Promise.all([live.projections.getCheckpoint('projector'), eventStore.headPosition()]);
        }
        await sleep(Math.random() * 300);
        [applied, head] = await Promise.all([live.projections.getCheckpoint('projector'), eventStore.headPosition()]);
        if (applied >= head) break;
        kills.push({ applied, head });
        await current.kill();
        current = await cluster.startProjector();
      }
      const summary = await importing;
      // 202 when the last batch landed while no projector was active to confirm it (docs/admin-api.md).
      expect([200, 202]).toContain(summary.status);
      expect(summary.body).toMatchObject({ lines: LINES, created: DISTINCT, updated: LINES - DISTINCT, failed: 0 });

      const head = await eventStore.headPosition();
      await eventually('the restarted projector to catch up with the log', async () => ((await live.projections.getCheckpoint('projector')) >= head ? true : undefined), 60_000, 200);
      console.log(`[projector crash] SIGKILLs at (applied/head): ${kills.map((k) => `${k.applied}/${k.head}`).join(', ')}; final head ${head}`);
      // The projector really died in the middle of the work, several times.
      expect(kills.length).toBeGreaterThanOrEqual(3);
      expect(kills.every((k, i) => k.applied < k.head && k.applied > (kills[i - 1]?.applied ?? 0))).toBe(true);

      const rebuilt: Stores = createRedisStores(client, { namespace: `rebuilt-${randomUUID()}` });
      const result = await rebuildReadModels({ eventStore, target: rebuilt });
      expect(result.position).toBe(head);
      expect(await compareReadModels(live, rebuilt)).toEqual([]);

      const [liveCollection, rebuiltCollection] = await Promise.all([live.readModel.getCollection('bulk'), rebuilt.readModel.getCollection('bulk')]);
      expect(liveCollection).toEqual(rebuiltCollection);
      for (const sort of ['price', 'label', 'updatedAt', 'createdAt']) {
        for (const order of ['asc', 'desc'] as const) {
          for (const offset of [0, 4_000, DISTINCT - 50]) {
            const query = { sort, order, offset, limit: 50 };
            const [a, b] = await Promise.all([live.readModel.getCollectionPage('bulk', query), rebuilt.readModel.getCollectionPage('bulk', query)]);
            expect(a?.total).toBe(DISTINCT);
            expect(a).toEqual(b);
          }
        }
      }
    } finally {
      await eventStore.close();
    }
  }, 180_000);
});
