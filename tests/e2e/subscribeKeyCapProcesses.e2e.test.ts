import { afterAll, expect, it } from 'vitest';
import { describeWithBackend, eventually } from '@pubstream/testing';
import { openSse, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// The per-key stream cap counts the streams of every API node, and a node that is killed (SIGKILL:
// it releases nothing) frees its share within seconds, when its slots expire in Redis (issue 15,
// finding 8). Real `pubstream api` processes of the distributed profile with MAX_STREAMS_PER_KEY=3.

describeWithBackend('kafka', 'per-key stream cap across two real API processes, one of them killed', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 2, projectors: 1, env: { MAX_STREAMS_PER_KEY: '3' } });
  const clients: SseTestClient[] = [];

  afterAll(() => {
    for (const client of clients.splice(0)) client.close();
  });

  const open = async (url: string, key: string): Promise<SseTestClient> => {
    const client = await openSse(`${url}/subscribe?${new URLSearchParams({ apiKey: key, collections: 'capped' }).toString()}`);
    clients.push(client);
    return client;
  };

  it('holds across both nodes; SIGKILL of one node frees its streams within seconds', async () => {
    const { cluster } = setup;
    await cluster.adminApi('POST', '/admin/collections', { slug: 'capped', name: 'Capped' });
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'cap', type: 'test' });
    const [a, b] = cluster.apis as [(typeof cluster.apis)[0], (typeof cluster.apis)[0]];

    expect((await open(a.url, key)).status).toBe(200);
    expect((await open(a.url, key)).status).toBe(200);
    expect((await open(b.url, key)).status).toBe(200);
    // The fourth stream is refused on either node: the cap is the key's, not the node's.
    for (const node of [a, b]) {
      const refused = await open(node.url, key);
      expect(refused.status).toBe(429);
      expect(await refused.body()).toMatch(/Too many concurrent streams/);
    }

    await a.kill();
    const started = Date.now();
    // Node a's two slots expire in Redis (15 s TTL, refreshed every 5 s by a live node).
    const reopened = await eventually(
      'a stream on node b once node a is dead',
      async () => {
        const client = await open(b.url, key);
        return client.status === 200 ? client : undefined;
      },
      30_000,
      500,
    );
    expect(reopened.status).toBe(200);
    console.log(`[stream cap] node a killed: its streams were released after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect((await open(b.url, key)).status).toBe(200);
    // Back at the cap: 1 + 2 reopened = 3 streams on b.
    expect((await open(b.url, key)).status).toBe(429);
  }, 90_000);
});
