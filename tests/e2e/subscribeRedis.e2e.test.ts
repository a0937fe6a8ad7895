import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, createRedisStores } from '@pubstream/read-model';
import { openSse, type ReceivedEvent, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { createSubscribeTestWorld, type SubscribeTestWorld } from '../../apps/api/src/subscribe/testing/subscribeTestWorld.js';

// The hand-off with a read model whose reads take real round trips (Redis): snapshot reads and
// deltas genuinely overlap here, unlike with the synchronous memory adapter.

const worlds: SubscribeTestWorld[] = [];
const clients: SseTestClient[] = [];
const isItem = (dataId: string) => (event: ReceivedEvent) => event.data?.dataId === dataId;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const world of worlds.splice(0)) await world.close();
});

describeWithBackend('redis', 'GET /subscribe on the Redis read model', (url) => {
  it('race: 50 subscribers connecting during a write burst each see consecutive versions, pages never go back', async () => {
    const client = await connectRedis(url, () => {});
    const w = await createSubscribeTestWorld({ stores: createRedisStores(client, { namespace: `sub-${randomUUID()}` }), coalesceMs: 5, slowReadsMs: 20 });
    worlds.push(w);
    const { apiKey } = await w.createKey();
    await w.putCollection('race');
    await w.putItem('race', 'counter', { n: 0 });

    let writing = true;
    let last = 0;
    const writer = (async () => {
      while (writing) {
        last = await w.putItem('race', 'counter', { n: last + 1 });
        await tick();
      }
    })();
    const subscribers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
        const sse = await openSse(w.subscribeUrl({ apiKey, dataIds: 'counter', collections: 'race' }));
        clients.push(sse);
        await sse.waitFor(isItem('counter'), 'snapshot');
        return sse;
      }),
    );
    const target = last + 30;
    while (last < target) await tick();
    writing = false;
    await writer;

    for (const sse of subscribers) {
      await sse.waitFor((e) => isItem('counter')(e) && e.data.version === last, `version ${last}`);
      const items = sse.events.filter(isItem('counter'));
      const first = items[0]?.data.version as number;
      expect(items.map((e) => e.data.version)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
      for (const event of items) expect(event.data.data.n).toBe(event.data.version);
      const pages = sse.events.filter((e) => e.data?.collectionSlug === 'race').map((e) => e.data.data.data[0].data.n as number);
      for (let i = 1; i < pages.length; i++) expect(pages[i]).toBeGreaterThan(pages[i - 1] as number);
      await sse.waitFor((e) => e.data?.collectionSlug === 'race' && e.data.data.data[0].data.n === last, 'final page');
    }
  });
});
