import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackend, eventually } from '@pubstream/testing';
import { openSse, type ReceivedEvent, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import type { DistributedCluster } from '../../apps/cli/src/distributed/testing/distributedCluster.js';
import type { NodeProcess } from '../../apps/cli/src/distributed/testing/nodeProcess.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// The distributed profile as real processes (`pubstream admin|projector|api`): one admin, one
// projector and two API nodes on a Redis of this file's own, a real Kafka broker and a SQLite log
// file shared by the admin (writer) and the projector (reader).

const ORIGIN = 'https://shop.example.com';
const isItem = (dataId: string) => (event: ReceivedEvent) => event.data?.dataId === dataId && event.event === 'update';

describeWithBackend('kafka', 'distributed profile: two API nodes, one projector, one admin (real Redis + Kafka)', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 2, projectors: 1 });
  const clients: SseTestClient[] = [];
  let admin: DistributedCluster['adminApi'];
  let apis: NodeProcess[] = [];

  const connect = async (node: NodeProcess, params: Record<string, string>): Promise<SseTestClient> => {
    const client = await openSse(`${node.url}/subscribe?${new URLSearchParams(params).toString()}`, { Origin: ORIGIN });
    clients.push(client);
    return client;
  };
  const read = (node: NodeProcess, path: string, key: string) => fetch(`${node.url}${path}`, { headers: { 'X-API-Key': key, Origin: ORIGIN } });

  beforeAll(() => {
    apis = setup.cluster.apis;
    admin = setup.cluster.adminApi;
  });
  afterAll(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('a subscriber on each API node receives every admin write in version order; a read on either node reflects it', async () => {
    await admin('POST', '/admin/collections', { slug: 'live', name: 'Live' });
    await admin('PUT', '/admin/collections/live/items/counter', { data: { n: 0 } });
    const { key } = await admin<{ key: string }>('POST', '/admin/keys', { name: 'e2e', type: 'live', allowedDomains: ['shop.example.com'] });

    const subscribers = await Promise.all(apis.map((node) => connect(node, { apiKey: key, dataIds: 'counter', collections: 'live' })));
    for (const subscriber of subscribers) {
      expect(subscriber.status).toBe(200);
      await subscriber.waitFor(isItem('counter'), 'snapshot of counter');
    }

    const last = 40;
    for (let n = 1; n <= last; n++) {
      await admin('PUT', '/admin/collections/live/items/counter', { data: { n } });
      // The admin answers after read-your-writes: both nodes read the new value at once.
      if (n % 10 === 0) {
        for (const node of apis) {
          const response = await read(node, '/public/data/counter', key);
          expect(response.status).toBe(200);
          expect((await response.json()).data).toEqual({ n });
        }
      }
    }
    for (const subscriber of subscribers) {
      await subscriber.waitFor((event) => isItem('counter')(event) && event.data.data.n === last, `n = ${last}`);
      const updates = subscriber.events.filter(isItem('counter')).map((event) => event.data);
      // Every version once, in order: the snapshot's, then each write's.
      expect(updates.map((update) => update.data.n)).toEqual(Array.from({ length: last + 1 }, (_, n) => n));
      const versions = updates.map((update) => update.version).filter((version) => version !== undefined);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    }
  });

  it('a key deleted through the admin API is rejected by both API nodes within one second; its streams end with key_revoked', async () => {
    await admin('POST', '/admin/collections', { slug: 'revoke', name: 'Revoke' });
    await admin('PUT', '/admin/collections/revoke/items/thing', { data: { ok: true } });
    const { key, keyId } = await admin<{ key: string; keyId: string }>('POST', '/admin/keys', { name: 'doomed', type: 'live', allowedDomains: ['shop.example.com'] });
    // Warm each node's key cache, so that the deletion has to invalidate it.
    for (const node of apis) expect((await read(node, '/public/data/thing', key)).status).toBe(200);
    const streams = await Promise.all(apis.map((node) => connect(node, { apiKey: key, dataIds: 'thing' })));
    for (const stream of streams) await stream.waitFor(isItem('thing'), 'snapshot');

    await admin('DELETE', `/admin/keys/${keyId}`);
    const deletedAt = Date.now();
    const rejectedAfter = await Promise.all(
      apis.map((node) =>
        eventually(`401 from ${node.url}`, async () => {
          const response = await read(node, '/public/data/thing', key);
          await response.text();
          return response.status === 401 ? Date.now() - deletedAt : undefined;
        }, 5_000, 20),
      ),
    );
    for (const ms of rejectedAfter) expect(ms).toBeLessThanOrEqual(1_000);
    for (const stream of streams) {
      await stream.ended;
      expect(stream.events.at(-1)).toEqual({ event: 'reconnect', data: { reason: 'key_revoked' } });
    }
  });
  it('SIGTERM on an API node: its open streams end with reconnect {reason: "shutdown"} and the process exits 0', async () => {
    await admin('POST', '/admin/collections', { slug: 'bye', name: 'Bye' });
    await admin('PUT', '/admin/collections/bye/items/last', { data: { ok: true } });
    const { key } = await admin<{ key: string }>('POST', '/admin/keys', { name: 'bye', type: 'live', allowedDomains: ['shop.example.com'] });
    const node = apis[1]!;
    const stream = await connect(node, { apiKey: key, dataIds: 'last' });
    await stream.waitFor(isItem('last'), 'snapshot');
    node.child.kill('SIGTERM');
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'reconnect', data: { reason: 'shutdown' } });
    expect(typeof stream.events.at(-1)?.data.retryAfterMs).toBe('number');
    expect(await node.exited).toBe(0);
    // The other node keeps serving.
    expect((await read(apis[0]!, '/public/data/last', key)).status).toBe(200);
  });
});

it('split roles refuse the embedded adapters: "pubstream api" without REDIS_URL exits 2 with one line naming it', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'api'], {
    cwd: new URL('../../', import.meta.url),
    env: { PATH: process.env.PATH ?? '', KAFKA_BROKERS: '127.0.0.1:9', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.status).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/REDIS_URL is required/);
});
