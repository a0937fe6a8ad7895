import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type ReceivedEvent, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';

// GET /subscribe on the whole embedded process (`pubstream start`): writes go through the admin
// API, the event log and the projector, and arrive as SSE on the public port.

const ORIGIN = 'https://shop.example.com';
let service: AllInOne;
const clients: SseTestClient[] = [];

const admin = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${service.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
};
const createKey = async (): Promise<{ key: string; keyId: string }> => admin('POST', '/admin/keys', { name: 'stream', type: 'live', allowedDomains: ['shop.example.com'] });
const subscribeUrl = (base: string, params: Record<string, string>) => `${base}/subscribe?${new URLSearchParams(params).toString()}`;
const connect = async (url: string): Promise<SseTestClient> => {
  const client = await openSse(url, { Origin: ORIGIN });
  clients.push(client);
  return client;
};
const isItem = (dataId: string) => (event: ReceivedEvent) => event.data?.dataId === dataId;
const isPage = (slug: string) => (event: ReceivedEvent) => event.data?.collectionSlug === slug;

beforeAll(async () => {
  service = await startAllInOne();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  await service?.stop();
});

describe('GET /subscribe on the all-in-one process', () => {
  it('streams the snapshot and the admin writes: update, delete, empty page, key_revoked', async () => {
    await admin('POST', '/admin/collections', { slug: 'shoes', name: 'Shoes' });
    await admin('PUT', '/admin/collections/shoes/items/runner', { data: { price: 100 } });
    const { key, keyId } = await createKey();

    const client = await connect(subscribeUrl(service.publicUrl, { apiKey: key, collections: 'shoes', dataIds: 'runner' }));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['access-control-allow-origin']).toBe(ORIGIN);
    await client.waitFor((e) => e.event === 'ready', 'ready after the snapshot');
    expect(client.events.map((e) => e.event)).toEqual(['connected', 'update', 'update', 'ready']);
    expect(client.events[1]?.data).toMatchObject({ dataId: 'runner', data: { price: 100 }, action: 'update' });
    expect(client.events[2]?.data.data).toEqual({ data: [{ dataId: 'runner', data: { price: 100 } }], total: 1, page: 1, limit: 20, totalPages: 1 });

    await admin('PUT', '/admin/collections/shoes/items/runner', { data: { price: 90 } });
    await client.waitFor((e) => isItem('runner')(e) && e.data.data.price === 90, 'price update');
    await client.waitFor((e) => isPage('shoes')(e) && e.data.data.data[0]?.data.price === 90, 'page with the new price');

    await admin('DELETE', '/admin/collections/shoes/items/runner');
    expect((await client.waitFor((e) => e.event === 'delete', 'delete')).data).toMatchObject({ dataId: 'runner', data: {}, action: 'delete' });
    await client.waitFor((e) => isPage('shoes')(e) && e.data.data.total === 0, 'page without the item');

    await admin('PUT', '/admin/collections/shoes/items/boot', { data: { price: 150 } });
    const withBoot = await client.waitFor((e) => isPage('shoes')(e) && e.data.data.data[0]?.dataId === 'boot', 'page with boot');
    await admin('DELETE', '/admin/collections/shoes');
    const empty = await client.waitFor((e) => isPage('shoes')(e) && client.events.indexOf(e) > client.events.indexOf(withBoot), 'page after delete');
    expect(empty.data.data).toEqual({ data: [], total: 0, page: 1, limit: 20, totalPages: 0 });

    await admin('DELETE', `/admin/keys/${keyId}`);
    await client.ended;
    expect(client.events.at(-1)).toEqual({ event: 'reconnect', data: { reason: 'key_revoked' } });
  });

  it('refuses with JSON before any stream: 401, 403 plan, 400, 404', async () => {
    await admin('POST', '/admin/collections', { slug: 'hats', name: 'Hats' });
    const { key } = await createKey();
    const refuse = async (params: Record<string, string>, status: number, message: string | RegExp) => {
      const client = await connect(subscribeUrl(service.publicUrl, params));
      expect(client.status).toBe(status);
      expect(client.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(await client.body());
      expect(body.message).toMatch(message);
    };
    await refuse({ apiKey: 'pk_live_nope', collections: 'hats' }, 401, 'Invalid API key');
    await refuse({ apiKey: key }, 400, /Nothing to subscribe to/);
    await refuse({ apiKey: key, collections: 'hats,gloves' }, 404, 'Collection not found: gloves');
    await admin('PUT', '/admin/plan', { plan: 'pro' });
    try {
      await refuse({ apiKey: key, collections: 'hats' }, 403, 'Real-time subscriptions require a plan with reactive mode (Business or higher)');
    } finally {
      await admin('PUT', '/admin/plan', { plan: 'business' });
    }
  });

  it('race: 50 subscribers connecting at random moments while an item is written as fast as possible see consecutive versions', async () => {
    await admin('POST', '/admin/collections', { slug: 'race', name: 'Race' });
    await admin('PUT', '/admin/collections/race/items/counter', { data: { n: 0 } });
    const { key } = await createKey();
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        n++;
        await admin('PUT', '/admin/collections/race/items/counter', { data: { n } });
      }
    })();
    const subscribers = await Promise.all(
      Array.from({ length: 50 }, async () => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_000));
        const client = await connect(subscribeUrl(service.publicUrl, { apiKey: key, dataIds: 'counter', collections: 'race' }));
        await client.waitFor(isItem('counter'), 'snapshot');
        return client;
      }),
    );
    const stopAt = n + 20;
    while (n < stopAt) await new Promise((resolve) => setTimeout(resolve, 10));
    writing = false;
    await writer;
    for (const client of subscribers) {
      await client.waitFor((e) => isItem('counter')(e) && e.data.data.n === n, `n = ${n}`);
      const values = client.events.filter(isItem('counter')).map((e) => e.data.data.n as number);
      const first = values[0] as number;
      expect(values).toEqual(Array.from({ length: n - first + 1 }, (_, i) => first + i));
      const versions = client.events.filter(isItem('counter')).map((e) => e.data.version as number);
      for (let i = 1; i < versions.length; i++) expect(versions[i]).toBe((versions[i - 1] as number) + 1);
    }
  });
});

describe('stream lifetime on the all-in-one process', () => {
  it('cycles streams after STREAM_TTL_MS and ends them with shutdown on a graceful stop', async () => {
    const short = await startAllInOne({ config: { streamTtlMs: 300 } });
    try {
      await fetch(`${short.adminUrl}/admin/collections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${short.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'c', name: 'C' }),
      });
      const created = await fetch(`${short.adminUrl}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${short.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'k', type: 'live', allowedDomains: ['shop.example.com'] }),
      });
      const { key } = (await created.json()) as { key: string };
      for (let cycle = 0; cycle < 3; cycle++) {
        const client = await connect(subscribeUrl(short.publicUrl, { apiKey: key, collections: 'c' }));
        const connected = await client.waitFor((e) => e.event === 'connected');
        expect(connected.data.ttlMs).toBeGreaterThanOrEqual(270);
        expect(connected.data.ttlMs).toBeLessThanOrEqual(330);
        await client.ended;
        expect(client.events.map((e) => e.event)).toEqual(['connected', 'update', 'ready', 'reconnect']);
        expect(client.events.at(-1)?.data).toEqual({ reason: 'cycle' });
      }
      const last = await connect(subscribeUrl(short.publicUrl, { apiKey: key, collections: 'c' }));
      await last.waitFor(isPage('c'), 'snapshot');
      await short.stop();
      await last.ended;
      expect(last.events.at(-1)).toMatchObject({ event: 'reconnect', data: { reason: 'shutdown' } });
      // Its wait is drawn in SHUTDOWN_RECONNECT_WINDOW_MS (default 10 s).
      expect(last.events.at(-1)?.data.retryAfterMs).toBeGreaterThanOrEqual(0);
      expect(last.events.at(-1)?.data.retryAfterMs).toBeLessThan(10_000);
    } finally {
      await short.stop();
    }
  });
});
