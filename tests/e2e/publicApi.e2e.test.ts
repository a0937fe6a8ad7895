import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createApiApp, type ApiApp } from '@pubstream/api';
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { createLogger } from '@pubstream/observability';

// End to end in the all-in-one process: write through the admin API, read through the public API.

let service: AllInOne;
let publicUrl: string;
let ownApi: { api: ApiApp; server: Server } | null = null;
// Each admin write happens at its own, known instant, so createdAt/updatedAt are predictable.
let clock = Date.parse('2026-03-01T00:00:00.000Z');
const tick = () => (clock += 1000);

const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
  tick();
  const res = await fetch(`${service.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
};
const read = async (path: string, key: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${publicUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'X-API-Key': key, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
};
const createKey = async (options: { type?: 'live' | 'test'; rateLimit?: number; allowedDomains?: string[] } = {}) => {
  const res = await admin('POST', '/admin/keys', { name: 'e2e', type: options.type ?? 'live', rateLimit: options.rateLimit, allowedDomains: options.allowedDomains ?? [] });
  expect(res.status).toBe(201);
  return res.body as { keyId: string; key: string };
};

beforeAll(async () => {
  service = await startAllInOne({ now: () => new Date(clock) });
  publicUrl = service.publicUrl;
  if (publicUrl === '') {
    // Until the all-in-one serves the public API itself, serve it here on the same adapters.
    const api = await createApiApp({
      stores: service.stores,
      changeStream: service.changeStream,
      config: { acceptTestKeys: true, requireBrowserOrigin: false, rateLimitWindow: 'minute', cacheTtlMs: 0 },
      logger: createLogger({ level: 'silent', name: 'e2e' }),
      now: () => new Date(clock),
    });
    const server = createServer(api.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ownApi = { api, server };
  }
});
afterAll(async () => {
  if (ownApi) {
    await ownApi.api.close();
    ownApi.server.closeAllConnections();
    await new Promise((resolve) => ownApi?.server.close(resolve));
  }
  await service?.stop();
});

describe('admin writes, public reads', () => {
  it('an item written through the admin API is served by all three read routes', async () => {
    const { key } = await createKey();
    expect((await admin('POST', '/admin/collections', { slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] })).status).toBe(201);
    expect((await admin('PUT', '/admin/collections/books/items/dune', { data: { title: 'Dune', year: 1965 } })).status).toBe(201);
    const written = clock;
    expect((await admin('PUT', '/admin/collections/books/items/emma', { data: { title: 'Emma', year: 1815 } })).status).toBe(201);

    const one = await read('/public/data/dune', key);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: expect.any(String),
      dataId: 'dune',
      collectionId: 'books',
      data: { title: 'Dune', year: 1965 },
      createdAt: new Date(written).toISOString(),
      updatedAt: new Date(written).toISOString(),
    });
    expect((await read('/public/batch', key, { method: 'POST', body: { dataIds: ['emma', 'nope', 'dune'], fields: ['title'] } })).body).toEqual({
      data: [
        { dataId: 'emma', data: { title: 'Emma' } },
        { dataId: 'dune', data: { title: 'Dune' } },
      ],
      found: 2,
      notFound: ['nope'],
    });
    const page = await read('/public/collections/books/data?sort=year&order=asc', key);
    expect(page.body).toEqual({
      data: [
        { dataId: 'emma', data: { title: 'Emma', year: 1815 } },
        { dataId: 'dune', data: { title: 'Dune', year: 1965 } },
      ],
      total: 2,
      page: 1,
      limit: 20,
      totalPages: 1,
    });
    expect(page.headers.get('x-ratelimit-limit')).toBe('5000');
  });

  it('a key deleted through the admin API is rejected with 401 on the very next request', async () => {
    const { keyId, key } = await createKey();
    expect((await read('/public/data/dune', key)).status).toBe(200);
    expect((await admin('DELETE', `/admin/keys/${keyId}`)).status).toBe(204);
    const next = await read('/public/data/dune', key);
    expect(next.status).toBe(401);
    expect(next.body).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
  });

  it('a domain change through the admin API applies to the next request', async () => {
    const { keyId, key } = await createKey({ allowedDomains: ['example.com'] });
    const from = (origin: string) => fetch(`${publicUrl}/public/data/dune`, { headers: { 'X-API-Key': key, Origin: origin } });
    expect((await from('https://example.com')).status).toBe(200);
    expect((await from('https://shop.example.org')).status).toBe(403);
    expect((await admin('PATCH', `/admin/keys/${keyId}`, { allowedDomains: ['*.example.org'] })).status).toBe(200);
    const now = await from('https://shop.example.org');
    expect(now.status).toBe(200);
    expect(now.headers.get('access-control-allow-origin')).toBe('https://shop.example.org');
    expect((await from('https://example.com')).status).toBe(403);
  });

  it('usage of each request shows in the admin key list', async () => {
    const { keyId, key } = await createKey();
    for (let i = 0; i < 3; i++) await read('/public/data/dune', key);
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // one usage flush interval
    const list = await admin('GET', '/admin/keys');
    const row = (list.body as { data: { keyId: string; requestCount: number; lastUsedAt: string | null }[] }).data.find((k) => k.keyId === keyId);
    expect(row?.requestCount).toBe(3);
    expect(row?.lastUsedAt).not.toBeNull();
  });
});

// ---- Property: random admin writes, then every public read equals a naive model --------------

interface ModelItem {
  collection: string;
  data: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}
type Write = { kind: 'put'; item: number; n: number | null; s: string | null } | { kind: 'delete'; item: number };

const ITEMS_PER_COLLECTION = 5;
const write: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      item: fc.nat(2 * ITEMS_PER_COLLECTION - 1),
      n: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
      s: fc.option(fc.constantFrom('a', 'b', 'B', 'ab', 'z'), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), item: fc.nat(2 * ITEMS_PER_COLLECTION - 1) }) },
);

const compareModel = (sort: string, order: 'asc' | 'desc') => (a: [string, ModelItem], b: [string, ModelItem]): number => {
  const value = (entry: [string, ModelItem]): unknown =>
    sort === 'dataId' ? entry[0] : sort === 'createdAt' ? entry[1].createdAt : sort === 'updatedAt' ? entry[1].updatedAt : entry[1].data[sort];
  const va = value(a);
  const vb = value(b);
  // Items missing the sort field come last, whatever the order.
  if (va === undefined && vb !== undefined) return 1;
  if (vb === undefined && va !== undefined) return -1;
  const sign = order === 'asc' ? 1 : -1;
  if (va !== undefined && vb !== undefined && va !== vb) return ((va as number | string) < (vb as number | string) ? -1 : 1) * sign;
  return (a[0] < b[0] ? -1 : 1) * sign;
};

describe('property: public reads equal a naive model of the admin writes', () => {
  let key: string;
  let run = 0;
  beforeAll(async () => {
    key = (await createKey({ rateLimit: 50_000 })).key;
  });

  it('items, batch and every page of every sort', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 14 }), fc.integer({ min: 1, max: 4 }), async (writes, limit) => {
        run++;
        const slugs = [`r${run}-a`, `r${run}-b`];
        const ids = Array.from({ length: 2 * ITEMS_PER_COLLECTION }, (_, i) => `r${run}-i${i}`);
        const collectionOf = (item: number) => slugs[item < ITEMS_PER_COLLECTION ? 0 : 1]!;
        for (const slug of slugs) {
          const res = await admin('POST', '/admin/collections', { slug, name: slug, sortableFields: [{ name: 'n', type: 'number' }, { name: 's', type: 'string' }] });
          expect(res.status).toBe(201);
        }
        const model = new Map<string, ModelItem>();
        for (const [step, w] of writes.entries()) {
          const dataId = ids[w.item]!;
          const collection = collectionOf(w.item);
          if (w.kind === 'put') {
            const data: Record<string, unknown> = { step };
            if (w.n !== null) data.n = w.n;
            if (w.s !== null) data.s = w.s;
            const res = await admin('PUT', `/admin/collections/${collection}/items/${dataId}`, { data });
            expect(res.status).toBeLessThan(300);
            const existing = model.get(dataId);
            model.set(dataId, { collection, data, createdAt: existing?.createdAt ?? clock, updatedAt: clock });
          } else {
            const res = await admin('DELETE', `/admin/collections/${collection}/items/${dataId}`);
            expect(res.status).toBe(model.has(dataId) ? 204 : 404);
            model.delete(dataId);
          }
        }

        for (const dataId of ids) {
          const res = await read(`/public/data/${dataId}`, key);
          const expected = model.get(dataId);
          if (!expected) {
            expect(res.status).toBe(404);
            expect(res.body).toEqual({ error: 'Not Found', message: 'Data not found' });
          } else {
            expect(res.body).toEqual({
              id: expect.any(String),
              dataId,
              collectionId: expected.collection,
              data: expected.data,
              createdAt: new Date(expected.createdAt).toISOString(),
              updatedAt: new Date(expected.updatedAt).toISOString(),
            });
          }
        }

        const asked = [...ids].reverse();
        const batch = await read('/public/batch', key, { method: 'POST', body: { dataIds: asked } });
        expect(batch.body).toEqual({
          data: asked.filter((id) => model.has(id)).map((id) => ({ dataId: id, data: model.get(id)!.data })),
          found: asked.filter((id) => model.has(id)).length,
          notFound: asked.filter((id) => !model.has(id)),
        });

        for (const slug of slugs) {
          const members = [...model.entries()].filter(([, item]) => item.collection === slug);
          const totalPages = Math.ceil(members.length / limit);
          for (const sort of ['createdAt', 'updatedAt', 'dataId', 'n', 's']) {
            for (const order of ['asc', 'desc'] as const) {
              const sorted = [...members].sort(compareModel(sort, order));
              for (let page = 1; page <= totalPages + 1; page++) {
                const res = await read(`/public/collections/${slug}/data?sort=${sort}&order=${order}&limit=${limit}&page=${page}`, key);
                expect(res.body).toEqual({
                  data: sorted.slice((page - 1) * limit, page * limit).map(([dataId, item]) => ({ dataId, data: item.data })),
                  total: members.length,
                  page,
                  limit,
                  totalPages,
                });
              }
            }
          }
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

// Runs last: it changes the project's plan, which needs every key within the new plan's maximum.
describe('plans through the admin API, limits on the public API', () => {
  beforeAll(async () => {
    const keys = (await admin('GET', '/admin/keys')).body as { data: { keyId: string }[] };
    for (const { keyId } of keys.data) expect((await admin('DELETE', `/admin/keys/${keyId}`)).status).toBe(204);
  });
  afterAll(async () => {
    await admin('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
  });

  it('a new key gets the plan default; above the plan maximum is refused', async () => {
    const downgrade = await admin('PUT', '/admin/plan', { plan: 'free' });
    expect(downgrade.body).toMatchObject({ plan: 'free' });
    const { key } = await createKey();
    expect((await read('/public/data/dune', key)).headers.get('x-ratelimit-limit')).toBe('100');
    const tooMuch = await admin('POST', '/admin/keys', { name: 'greedy', type: 'live', rateLimit: 101 });
    expect(tooMuch.status).toBe(400);
  });

  it('the monthly quota answers 429 Try again later. for live keys only', async () => {
    expect((await admin('PUT', '/admin/plan', { plan: 'pro', monthlyQuota: 2 })).status).toBe(200);
    const { key } = await createKey();
    const { key: testKey } = await createKey({ type: 'test' });
    expect((await read('/public/data/dune', key)).status).toBe(200);
    expect((await read('/public/data/dune', key)).status).toBe(200);
    const over = await read('/public/data/dune', key);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'Too Many Requests', message: 'Rate limit exceeded. Try again later.' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await read('/public/data/dune', testKey)).status).toBe(200);
  });
});
