// What the GET /subscribe tests over real HTTP share: test worlds and SSE clients closed after
// each test, and the write-burst race every read model must win.
import { afterEach, expect } from 'vitest';
import { openSse, type ReceivedEvent, type SseTestClient } from '../../../apps/api/src/subscribe/testing/sseTestClient.js';
import { createSubscribeTestWorld, type SubscribeTestWorld, type SubscribeTestWorldOptions } from '../../../apps/api/src/subscribe/testing/subscribeTestWorld.js';

export const ORIGIN = 'https://app.example.com';
export const isItem = (dataId: string) => (event: ReceivedEvent) => event.data?.dataId === dataId;
export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface SubscribeWorlds {
  /** A test world (API + hub on a read model), closed after the test. */
  world(options?: SubscribeTestWorldOptions): Promise<SubscribeTestWorld>;
  /** An SSE client (with an `Origin` of the test site by default), closed after the test. */
  connect(url: string, headers?: Record<string, string>): Promise<SseTestClient>;
}

/** Registers the file's afterEach, which closes the test's clients, then its worlds. */
export const useSubscribeWorlds = (options: { connectTimeoutMs?: number } = {}): SubscribeWorlds => {
  const worlds: SubscribeTestWorld[] = [];
  const clients: SseTestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const created of worlds.splice(0)) await created.close();
  });
  return {
    async world(worldOptions = {}) {
      const created = await createSubscribeTestWorld(worldOptions);
      worlds.push(created);
      return created;
    },
    async connect(url, headers = { Origin: ORIGIN }) {
      const client = await openSse(url, headers, options.connectTimeoutMs);
      clients.push(client);
      return client;
    },
  };
};

/**
 * 50 subscribers connect at random moments (within `spreadMs`) while one item is rewritten in a
 * tight loop, `extraWrites` more after the last connected. Each must see strictly consecutive
 * versions from its snapshot on, every value matching its version, and pages that never go back.
 */
export const expectConsecutiveVersionsDuringWriteBurst = async (
  w: SubscribeTestWorld,
  connect: (url: string) => Promise<SseTestClient>,
  options: { spreadMs: number; extraWrites: number; awaitFinalPage: boolean },
): Promise<void> => {
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
      await new Promise((resolve) => setTimeout(resolve, Math.random() * options.spreadMs));
      const client = await connect(w.subscribeUrl({ apiKey, dataIds: 'counter', collections: 'race' }));
      await client.waitFor(isItem('counter'), 'snapshot');
      return client;
    }),
  );
  // Keep writing a little after the last one connected.
  const target = last + options.extraWrites;
  while (last < target) await tick();
  writing = false;
  await writer;
  const final = last;
  for (const client of subscribers) {
    await client.waitFor((e) => isItem('counter')(e) && e.data.version === final, `version ${final}`);
    const items = client.events.filter(isItem('counter'));
    const first = items[0]?.data.version as number;
    expect(items.map((e) => e.data.version)).toEqual(Array.from({ length: final - first + 1 }, (_, i) => first + i));
    // Every data value matches its version: no stale payload under a newer version.
    for (const event of items) expect(event.data.data.n).toBe(event.data.version);
    const pages = client.events.filter((e) => e.data?.collectionSlug === 'race').map((e) => e.data.data.data[0].data.n as number);
    for (let i = 1; i < pages.length; i++) expect(pages[i]).toBeGreaterThan(pages[i - 1] as number);
    if (options.awaitFinalPage) await client.waitFor((e) => e.data?.collectionSlug === 'race' && e.data.data.data[0].data.n === final, 'final page');
  }
};
