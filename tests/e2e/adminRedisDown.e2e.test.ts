import { createSqliteEventStore, openSqliteDatabase, type EventStore } from '@pubstream/event-store';
import { describeWithBackend, startLocalRedis, eventually, type LocalRedis } from '@pubstream/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN } from '../../apps/cli/src/distributed/testing/adminHttp.js';
import { startDistributedCluster, type DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';
import { startNodeProcess, type NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';

// Issue 15 finding 6 on real processes: `pubstream admin` on its Redis read model, fed by
// `pubstream projector`, with this file's own Redis killed under it. A write whose events are in
// the log is never answered as failed: 202 with its log position and the resource built from its
// events. A retry with the same Idempotency-Key answers the same after Redis is back, after the
// admin restarted and on another admin node sharing the log (docs/admin-api.md). Writes while its
// client connections are killed every 100 ms: the chaos tier (tests/chaos/redisClientKill.e2e.test.ts).

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

const call = async (base: string, method: string, path: string, options: { body?: unknown; key?: string } = {}): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
};

describeWithBackend('kafka', 'admin writes while the Redis read model is down', (brokers) => {
  let redis: LocalRedis;
  let cluster: DistributedCluster;
  let log: EventStore;
  const extraAdmins: NodeProcess[] = [];
  const admin = (method: string, path: string, options: { body?: unknown; key?: string } = {}) => call(cluster.admin.url, method, path, options);

  beforeAll(async () => {
    redis = await startLocalRedis({ appendonly: true });
    cluster = await startDistributedCluster({ brokers, redisUrl: redis.url, apis: 0, env: { READ_YOUR_WRITES_TIMEOUT_MS: '1000' } });
    log = createSqliteEventStore(openSqliteDatabase((cluster.env.EVENT_STORE_URL ?? '').replace(/^sqlite:/, '')));
    // 201, or 202 while the projector is still taking its lease.
    expect((await admin('POST', '/admin/collections', { body: { slug: 'outage', name: 'Outage' } })).status).toBeLessThan(300);
    expect((await admin('PUT', '/admin/collections/outage/items/before', { body: { data: { v: 1 } } })).status).toBeLessThan(300);
    await eventually('the projector to apply the first writes', async () => ((await admin('GET', '/admin/collections/outage/items/before')).status === 200 ? true : undefined), 30_000, 100);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(extraAdmins.map((node) => node.stop()));
    await log?.close();
    await cluster?.stop();
    await redis?.stop();
  }, 60_000);

  it('answers committed writes 202 with their position and resource, refuses uncommittable ones 503, and replays the same answers', async () => {
    const created = (await admin('GET', '/admin/collections/outage/items/before')).body as { createdAt: string };
    await redis.kill();

    // Committed writes: 202, the position in the body and in X-Position, the resource from its events.
    const put = await admin('PUT', '/admin/collections/outage/items/during', { body: { data: { title: 'During' } }, key: 'outage-put' });
    expect(put.status).toBe(202);
    expect(put.body).toEqual({
      id: expect.any(String),
      dataId: 'during',
      collectionId: 'outage',
      data: { title: 'During' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: put.body?.createdAt,
      position: expect.any(Number),
    });
    expect(put.headers.get('x-position')).toBe(String(put.body?.position));
    const [event] = await log.readStream('item-during');
    expect(event).toMatchObject({ type: 'ItemCreated', position: put.body?.position });

    const update = await admin('PUT', '/admin/collections/outage/items/before', { body: { data: { v: 2 } }, key: 'outage-update' });
    expect(update.status).toBe(202);
    expect(update.body).toMatchObject({ dataId: 'before', data: { v: 2 }, createdAt: created.createdAt });

    const unkeyed = await admin('PUT', '/admin/collections/outage/items/unkeyed', { body: { data: { n: 1 } } });
    expect(unkeyed.status).toBe(202);
    expect((await log.readStream('item-unkeyed')).map((e) => e.type)).toEqual(['ItemCreated']);

    const deleted = await admin('DELETE', '/admin/collections/outage/items/unkeyed', { key: 'outage-delete' });
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ position: expect.any(Number) });

    const key = await admin('POST', '/admin/keys', { body: { name: 'During outage', type: 'test' }, key: 'outage-key' });
    expect(key.status).toBe(202);
    expect(key.body).toMatchObject({ name: 'During outage', key: expect.stringMatching(/^pk_test_/), position: expect.any(Number) });

    // Writes that need the read model to decide commit nothing and say so: 503 with Retry-After.
    const head = await log.headPosition();
    const patch = await admin('PATCH', '/admin/collections/outage', { body: { name: 'Renamed' } });
    expect(patch.status).toBe(503);
    expect(patch.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(patch.body).toEqual({ error: 'Service Unavailable', message: expect.any(String) });
    expect(await log.headPosition()).toBe(head);

    // A retry while Redis is still down is answered from the log alone.
    const early = await admin('PUT', '/admin/collections/outage/items/during', { body: { data: { title: 'During' } }, key: 'outage-put' });
    expect({ status: early.status, body: early.body }).toEqual({ status: put.status, body: put.body });

    await redis.restart();
    await eventually('the projector to apply the outage writes', async () => {
      const item = await admin('GET', '/admin/collections/outage/items/during');
      return item.status === 200 ? true : undefined;
    }, 30_000, 200);

    const retries = async (base: string) => {
      for (const [original, method, path, body, key] of [
        [put, 'PUT', '/admin/collections/outage/items/during', { data: { title: 'During' } }, 'outage-put'],
        [update, 'PUT', '/admin/collections/outage/items/before', { data: { v: 2 } }, 'outage-update'],
        [deleted, 'DELETE', '/admin/collections/outage/items/unkeyed', undefined, 'outage-delete'],
      ] as const) {
        const retry = await call(base, method, path, { body, key });
        expect({ status: retry.status, body: retry.body }, `${base} ${method} ${path}`).toEqual({ status: original.status, body: original.body });
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
      }
      const keyRetry = await call(base, 'POST', '/admin/keys', { body: { name: 'During outage', type: 'test' }, key: 'outage-key' });
      expect(keyRetry.status).toBe(202);
      expect(keyRetry.body).toEqual({ ...key.body, key: null, message: expect.stringContaining('shown only once') });
    };
    await retries(cluster.admin.url);

    // Another admin node on the same log, then a restart of the first one: the same answers.
    extraAdmins.push(await startNodeProcess('admin', cluster.env));
    await retries(extraAdmins[0]!.url);
    await cluster.admin.stop();
    extraAdmins.push(await startNodeProcess('admin', cluster.env));
    await retries(extraAdmins[1]!.url);

    // Nothing was written twice: one creation for the keyed item, one event for the keyed update.
    expect((await log.readStream('item-during')).map((e) => e.type)).toEqual(['ItemCreated']);
    expect((await log.readStream('item-before')).map((e) => e.type)).toEqual(['ItemCreated', 'ItemUpdated']);
  }, 120_000);
});
