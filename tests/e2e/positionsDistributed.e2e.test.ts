import { beforeAll, expect, it } from 'vitest';
import { describeWithBackend, eventually } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import type { NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// Positions through the distributed profile as real processes (one admin, one projector, two API
// nodes, real Redis and Kafka). The admin answers after 1 ms of read-your-writes: most writes come
// back 202 before the projector applied them, so a read that sees the write did wait for it.

const ORIGIN = 'https://shop.example.com';

describeWithBackend('kafka', 'distributed profile: read-your-writes with minPosition and the changes feed', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 2, projectors: 1, env: { READ_YOUR_WRITES_TIMEOUT_MS: '1', MIN_POSITION_WAIT_MS: '10000' } });
  let apis: NodeProcess[] = [];
  let key = '';
  const adminFetch = (method: string, path: string, body: string, contentType = 'application/json') =>
    fetch(`${setup.cluster.admin.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': contentType }, body });
  const read = (node: NodeProcess, path: string) => fetch(`${node.url}${path}`, { headers: { 'X-API-Key': key, Origin: ORIGIN } });

  beforeAll(async () => {
    apis = setup.cluster.apis;
    await setup.cluster.adminApi('POST', '/admin/collections', { slug: 'rw', name: 'Read your writes' });
    await setup.cluster.adminApi('POST', '/admin/collections', { slug: 'feed', name: 'Feed' });
    ({ key } = await setup.cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'e2e', type: 'live', allowedDomains: ['shop.example.com'] }));
    // The key check comes before the minPosition wait: a key the nodes do not know yet is 401.
    for (const node of apis) await eventually('the new key on every node', async () => ((await read(node, '/public/collections/rw/data')).status === 200 ? true : undefined));
  });

  it('a write through the admin API, then at once a read with minPosition on an API node, sees the write: 1,000 tries', async () => {
    let accepted = 0;
    // Four writers side by side, each on its own item, each read on the node the previous one did not use.
    const chain = async (writer: number): Promise<void> => {
      for (let n = 1; n <= 250; n++) {
        const write = await adminFetch('PUT', `/admin/collections/rw/items/w${writer}`, JSON.stringify({ data: { n } }));
        expect([200, 201, 202]).toContain(write.status);
        if (write.status === 202) accepted++;
        const position = write.headers.get('x-position');
        expect(position).toMatch(/^\d+$/);
        const node = apis[(writer + n) % apis.length] as NodeProcess;
        const answer = await read(node, `/public/data/w${writer}?minPosition=${position}`);
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { data: unknown }).data).toEqual({ n });
        expect(Number(answer.headers.get('x-position'))).toBeGreaterThanOrEqual(Number(position));
      }
    };
    await Promise.all([0, 1, 2, 3].map(chain));
    // The reads above had something to wait for: writes were answered before the projector applied them.
    expect(accepted).toBeGreaterThan(0);
  }, 240_000);

  it('the changes feed pages through 10,000 changes with nextSince, each exactly once, on either node', async () => {
    const page = await read(apis[0] as NodeProcess, '/public/collections/feed/data');
    const since = Number(page.headers.get('x-position'));
    for (const round of [1, 2]) {
      const lines = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ dataId: `f${i}`, data: { round } })).join('\n');
      const imported = await adminFetch('POST', '/admin/collections/feed/items:import', lines, 'application/x-ndjson');
      expect(imported.status === 200 || imported.status === 202).toBe(true);
      await imported.text();
    }
    const seen: string[] = [];
    let cursor = since;
    for (let pages = 0; seen.length < 10_000 && pages < 200; pages++) {
      const node = apis[pages % apis.length] as NodeProcess;
      const answer = await read(node, `/public/collections/feed/changes?since=${cursor}&limit=1000`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { changes: { position: number; dataId: string; data: { round: number } }[]; nextSince: number };
      seen.push(...body.changes.map((c) => `${c.dataId}@${c.data.round}`));
      expect(body.nextSince).toBeGreaterThanOrEqual(cursor);
      cursor = body.nextSince;
      // The projector may still be applying the import: poll on.
      if (body.changes.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(10_000);
  }, 240_000);
});
