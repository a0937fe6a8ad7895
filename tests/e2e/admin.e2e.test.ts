import { hashApiKey } from '@pubstream/access';
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCalls } from './support/adminCalls.js';

// Black-box tests of the admin API over real HTTP, on the embedded profile (SQLite log in memory,
// memory read models, the projector), started the way `pubstream start` starts it.

let service: AllInOne;

const { call, head, expectRefused } = adminCalls(() => service);

beforeAll(async () => {
  service = await startAllInOne();
});
afterAll(async () => {
  await service?.stop();
});

describe('admin authentication', () => {
  it('refuses requests without the bearer token or with a wrong one (401)', async () => {
    expect(await expectRefused(401, 'GET', '/admin/keys', { token: null })).toEqual({ error: 'Unauthorized', message: 'Missing or invalid admin token' });
    await expectRefused(401, 'POST', '/admin/collections', { token: 'wrong-token-wrong-token', body: { slug: 'x', name: 'X' } });
    const response = await call('GET', '/admin/plan', { token: null });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('collections', () => {
  it('creates, lists, updates and reads a collection', async () => {
    const created = await call('POST', '/admin/collections', { body: { slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }], itemCount: 0 });

    const updated = await call('PATCH', '/admin/collections/books', { body: { name: 'All books' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ slug: 'books', name: 'All books' });

    const list = await call('GET', '/admin/collections');
    expect(list.body.data).toContainEqual(expect.objectContaining({ slug: 'books', name: 'All books', itemCount: 0 }));
  });

  it('refuses bad collection requests without appending anything', async () => {
    expect((await expectRefused(400, 'POST', '/admin/collections', { body: { slug: 'Bad Slug!', name: 'x' } })).error).toBe('Bad Request');
    await expectRefused(400, 'POST', '/admin/collections', { body: { slug: 'ok', name: 'x', extra: 1 } });
    await expectRefused(400, 'POST', '/admin/collections', { body: { slug: 'ok', name: 'x', sortableFields: [{ name: 'createdAt', type: 'string' }] } });
    await expectRefused(400, 'POST', '/admin/collections', { raw: '{"slug": "ok",' });
    await expectRefused(415, 'POST', '/admin/collections', { raw: 'slug=ok', type: 'application/x-www-form-urlencoded' });
    await expectRefused(413, 'POST', '/admin/collections', { raw: JSON.stringify({ slug: 'big', name: 'x'.repeat(1_100_000) }) });
    await expectRefused(409, 'POST', '/admin/collections', { body: { slug: 'books', name: 'Again' } });
    await expectRefused(404, 'PATCH', '/admin/collections/nope', { body: { name: 'x' } });
    await expectRefused(400, 'PATCH', '/admin/collections/books', { body: {} });
    await expectRefused(404, 'DELETE', '/admin/collections/nope');
  });
});

describe('items', () => {
  it('upserts an item: 201 on creation, 200 on update', async () => {
    const created = await call('PUT', '/admin/collections/books/items/dune', { body: { data: { title: 'Dune', year: 1965 } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ dataId: 'dune', collectionId: 'books', data: { title: 'Dune', year: 1965 } });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const updated = await call('PUT', '/admin/collections/books/items/dune', { body: { data: { title: 'Dune', year: 1966 } } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.year).toBe(1966);
    await expect(service.readModel.getItem('dune')).resolves.toMatchObject({ data: { year: 1966 } });
    expect((await call('GET', '/admin/collections/books')).body.itemCount).toBe(1);
  });

  it('writing the same data again appends nothing', async () => {
    const before = await head();
    expect((await call('PUT', '/admin/collections/books/items/dune', { body: { data: { title: 'Dune', year: 1966 } } })).status).toBe(200);
    expect(await head()).toBe(before);
  });

  it('refuses bad item requests without appending anything', async () => {
    expect(await expectRefused(400, 'PUT', '/admin/collections/books/items/-bad', { body: { data: {} } })).toEqual({
      error: 'Bad Request',
      message: 'Invalid dataId format',
    });
    await expectRefused(400, 'PUT', `/admin/collections/books/items/${'a'.repeat(129)}`, { body: { data: {} } });
    await expectRefused(404, 'PUT', '/admin/collections/nope/items/x1', { body: { data: {} } });
    await expectRefused(400, 'PUT', '/admin/collections/books/items/x1', { body: { data: [1, 2] } });
    await expectRefused(400, 'PUT', '/admin/collections/books/items/x1', { body: {} });
    await call('POST', '/admin/collections', { body: { slug: 'films', name: 'Films' } });
    const conflict = await expectRefused(409, 'PUT', '/admin/collections/films/items/dune', { body: { data: { title: 'Dune (film)' } } });
    expect(conflict.message).toMatch(/belongs to collection "books"/);
    await expectRefused(404, 'DELETE', '/admin/collections/films/items/dune');
    await expectRefused(404, 'DELETE', '/admin/collections/books/items/never-existed');
  });

  it('deletes an item (204), after which it is gone from the read model', async () => {
    await call('PUT', '/admin/collections/books/items/emma', { body: { data: { title: 'Emma' } } });
    expect((await call('DELETE', '/admin/collections/books/items/emma')).status).toBe(204);
    expect(await service.readModel.getItem('emma')).toBeNull();
  });
});

describe('Idempotency-Key', () => {
  it('a retried write appends nothing new', async () => {
    const headers = { 'idempotency-key': 'retry-put-1' };
    const first = await call('PUT', '/admin/collections/books/items/ulysses', { body: { data: { title: 'Ulysses' } }, headers });
    expect(first.status).toBe(201);
    const before = await head();
    const retry = await call('PUT', '/admin/collections/books/items/ulysses', { body: { data: { title: 'Ulysses' } }, headers });
    expect(retry.status).toBeLessThan(300);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await head()).toBe(before);
  });

  it('a retried key creation returns the same key, masked, and creates no second key', async () => {
    const headers = { 'idempotency-key': 'create-key-1' };
    const first = await call('POST', '/admin/keys', { body: { name: 'Retry', type: 'live', allowedDomains: ['example.com'] }, headers });
    expect(first.status).toBe(201);
    const before = await head();
    const retry = await call('POST', '/admin/keys', { body: { name: 'Retry', type: 'live', allowedDomains: ['example.com'] }, headers });
    // The first answer's status (docs/admin-api.md), without the raw key: it was never stored.
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ keyId: first.body.keyId, key: null, maskedKey: first.body.maskedKey });
    expect(await head()).toBe(before);
    const keys = (await call('GET', '/admin/keys')).body.data as { name: string }[];
    expect(keys.filter((key) => key.name === 'Retry')).toHaveLength(1);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    await expectRefused(400, 'PUT', '/admin/collections/books/items/x2', { body: { data: {} }, headers: { 'idempotency-key': 'x'.repeat(201) } });
  });
});

describe('NDJSON import', () => {
  it('imports every good line and reports a bad one with its line number', async () => {
    await call('POST', '/admin/collections', { body: { slug: 'bulk', name: 'Bulk', sortableFields: [{ name: 'n', type: 'number' }] } });
    const lines = [
      JSON.stringify({ dataId: 'b1', data: { n: 1 } }),
      JSON.stringify({ dataId: 'b2', data: { n: 2 } }),
      '{"dataId": "b3", "data": ',
      '',
      JSON.stringify({ dataId: 'b4', data: { n: 4 } }),
      JSON.stringify({ dataId: 'b1', data: { n: 10 } }),
      JSON.stringify({ dataId: 'bad id', data: {} }),
      JSON.stringify({ dataId: 'dune', data: { title: 'Dune' } }),
    ];
    const response = await call('POST', '/admin/collections/bulk/items:import', { raw: lines.join('\n'), type: 'application/x-ndjson' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ lines: 7, created: 3, updated: 1, unchanged: 0, failed: 3 });
    expect(response.body.errors.map((error: { line: number }) => error.line)).toEqual([3, 7, 8]);
    expect(response.body.errors[2].message).toMatch(/belongs to collection "books"/);
    expect(await service.readModel.getItems(['b1', 'b2', 'b3', 'b4'])).toMatchObject([{ data: { n: 10 } }, { data: { n: 2 } }, null, { data: { n: 4 } }]);

    const again = await call('POST', '/admin/collections/bulk/items:import', { raw: lines.slice(0, 2).join('\n'), type: 'application/x-ndjson' });
    expect(again.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, failed: 0 });
  });

  it('imports a few thousand lines in batches', async () => {
    const lines = Array.from({ length: 2_000 }, (_, index) => JSON.stringify({ dataId: `many-${index}`, data: { n: index } }));
    const response = await call('POST', '/admin/collections/bulk/items:import', { raw: lines.join('\n'), type: 'application/x-ndjson' });
    expect(response.body).toMatchObject({ created: 2_000, failed: 0 });
    expect((await call('GET', '/admin/collections/bulk')).body.itemCount).toBe(2_003);
  });

  it('refuses a wrong media type (415) and an unknown collection (404) without appending', async () => {
    await expectRefused(415, 'POST', '/admin/collections/bulk/items:import', { raw: '{"dataId":"z","data":{}}', type: 'application/json' });
    await expectRefused(404, 'POST', '/admin/collections/nope/items:import', { raw: '{"dataId":"z","data":{}}', type: 'application/x-ndjson' });
  });
});

describe('keys', () => {
  it('creates a key shown in full once, then lists it masked', async () => {
    const created = await call('POST', '/admin/keys', { body: { name: 'Website', type: 'live', allowedDomains: 'example.com, *.Example.org' } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(created.body).toMatchObject({ name: 'Website', type: 'live', allowedDomains: ['example.com', '*.example.org'], rateLimit: 5_000 });
    expect(created.body.maskedKey).toBe(`pk_live_…${created.body.key.slice(-4)}`);

    const list = await call('GET', '/admin/keys');
    const listed = list.body.data.find((key: { keyId: string }) => key.keyId === created.body.keyId);
    expect(listed).toMatchObject({ name: 'Website', maskedKey: created.body.maskedKey, requestCount: 0, lastUsedAt: null });
    expect(listed.createdAt).toEqual(expect.any(String));
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);

    const patched = await call('PATCH', `/admin/keys/${created.body.keyId}`, { body: { rateLimit: 100, allowedDomains: ['www.example.com'] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ rateLimit: 100, allowedDomains: ['www.example.com'] });

    const keyHash = hashApiKey(created.body.key);
    expect(await service.stores.keys.getKeyByHash(keyHash)).toMatchObject({ keyId: created.body.keyId });
    expect((await call('DELETE', `/admin/keys/${created.body.keyId}`)).status).toBe(204);
    // Read-your-writes: the read model the public API consults no longer knows the key.
    expect(await service.stores.keys.getKeyByHash(keyHash)).toBeNull();
    expect((await call('GET', '/admin/keys')).body.data.map((key: { keyId: string }) => key.keyId)).not.toContain(created.body.keyId);
  });

  it('refuses bad key requests without appending anything', async () => {
    await expectRefused(400, 'POST', '/admin/keys', { body: { name: 'x', type: 'gold' } });
    await expectRefused(400, 'POST', '/admin/keys', { body: { type: 'live' } });
    expect((await expectRefused(400, 'POST', '/admin/keys', { body: { name: 'x', type: 'live', allowedDomains: ['https://example.com'] } })).message).toMatch(
      /Invalid allowed domain "https:\/\/example.com"/,
    );
    await expectRefused(400, 'POST', '/admin/keys', { body: { name: 'x', type: 'live', allowedDomains: 'example.com, exa*mple.com' } });
    await expectRefused(400, 'POST', '/admin/keys', { body: { name: 'x', type: 'live', allowedDomains: ['example.com:8080'] } });
    expect((await expectRefused(400, 'POST', '/admin/keys', { body: { name: 'x', type: 'live', rateLimit: 50_001 } })).message).toMatch(/maximum of 50000/);
    await expectRefused(404, 'PATCH', '/admin/keys/no-such-key', { body: { name: 'y' } });
    await expectRefused(404, 'DELETE', '/admin/keys/no-such-key');
  });
});

describe('admin writes seen by the public API', () => {
  it('a key deleted through the admin API is rejected on the very next public request', async () => {
    const created = await call('POST', '/admin/keys', { body: { name: 'Short-lived', type: 'live' } });
    const publicGet = () => fetch(`${service.publicUrl}/public/data/dune`, { headers: { 'X-API-Key': created.body.key } });
    expect((await publicGet()).status).toBe(200);
    expect((await call('DELETE', `/admin/keys/${created.body.keyId}`)).status).toBe(204);
    const refused = await publicGet();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
  });

  it('an item written through the admin API is served by the very next public request', async () => {
    const created = await call('POST', '/admin/keys', { body: { name: 'Reader', type: 'test' } });
    await call('PUT', '/admin/collections/books/items/walden', { body: { data: { title: 'Walden' } } });
    const response = await fetch(`${service.publicUrl}/public/data/walden`, { headers: { 'X-API-Key': created.body.key } });
    expect(await response.json()).toMatchObject({ dataId: 'walden', collectionId: 'books', data: { title: 'Walden' } });
  });
});

describe('plan and usage', () => {
  it('reads and changes the plan', async () => {
    expect((await call('GET', '/admin/plan')).body).toMatchObject({ plan: 'business', monthlyQuota: null, limits: { maxRateLimit: 50_000, reactive: true } });
    const changed = await call('PUT', '/admin/plan', { body: { plan: 'enterprise', monthlyQuota: 1_000_000 } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ plan: 'enterprise', monthlyQuota: 1_000_000, limits: { maxRateLimit: 100_000 } });
    expect(await service.stores.keys.getPlan()).toMatchObject({ plan: 'enterprise', monthlyQuota: 1_000_000 });
  });

  it('refuses a downgrade below existing keys, and bad plans, without appending', async () => {
    await call('POST', '/admin/keys', { body: { name: 'Big', type: 'live', rateLimit: 80_000 } });
    expect((await expectRefused(409, 'PUT', '/admin/plan', { body: { plan: 'free' } })).message).toMatch(/Big/);
    await expectRefused(400, 'PUT', '/admin/plan', { body: { plan: 'platinum' } });
    await expectRefused(400, 'PUT', '/admin/plan', { body: { plan: 'pro', monthlyQuota: -5 } });
  });

  it('reports usage per key: public requests show up in the key list and the usage series', async () => {
    // The API buffers usage counts and flushes them about once a second.
    let reader: { requestCount: number; lastUsedAt: string | null } | undefined;
    for (let attempt = 0; attempt < 50 && !(reader && reader.requestCount > 0); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reader = (await call('GET', '/admin/keys')).body.data.find((key: { name: string }) => key.name === 'Reader');
    }
    expect(reader).toMatchObject({ requestCount: 1, lastUsedAt: expect.any(String) });

    const response = await call('GET', '/admin/usage?granularity=hour');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ granularity: 'hour', totals: { test: 1 } });
    const readerUsage = response.body.keys.find((key: { name: string }) => key.name === 'Reader');
    expect(readerUsage).toMatchObject({ requestCount: 1, total: 1 });
    expect(readerUsage.series).toContainEqual({ bucket: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}$/), count: 1 });
    await expectRefused(400, 'GET', '/admin/usage?granularity=week');
    await expectRefused(400, 'GET', '/admin/usage?from=yesterday');
    await expectRefused(400, 'GET', '/admin/usage?granularity=hour&from=2020-01-01T00:00:00Z');
  });
});

describe('health', () => {
  it('answers /healthz and /readyz without the token', async () => {
    expect(await call('GET', '/healthz', { token: null })).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call('GET', '/readyz', { token: null })).toMatchObject({ status: 200, body: { status: 'ready', checks: { eventStore: 'ok', readModel: 'ok', caughtUp: 'ok' } } });
  });
});

describe('routing errors', () => {
  it('answers unknown routes with 404 and wrong methods with 405, as JSON', async () => {
    expect(await expectRefused(404, 'GET', '/admin/nothing-here')).toMatchObject({ error: 'Not Found' });
    expect(await expectRefused(404, 'GET', '/elsewhere')).toMatchObject({ error: 'Not Found' });
    // Default deny: without the token an unknown path is 401, like a known one (docs/security.md).
    expect(await expectRefused(401, 'GET', '/elsewhere', { token: null })).toMatchObject({ error: 'Unauthorized' });
    // The same wording as the public API (one error middleware, @pubstream/http), with Allow.
    expect(await expectRefused(405, 'PUT', '/admin/keys', { body: {} })).toEqual({ error: 'Method Not Allowed', message: 'Method PUT not allowed; allowed: HEAD, GET, POST' });
    const wrong = await call('POST', '/admin/plan', { body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('HEAD, GET, PUT');
    // OPTIONS names the methods in Allow and has no body to parse: 204, not an empty 200.
    const options = await call('OPTIONS', '/admin/plan');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('HEAD, GET, PUT');
  });
});

describe('deleting a collection', () => {
  it('deletes its items first, then the collection', async () => {
    const response = await call('DELETE', '/admin/collections/bulk');
    expect(response.status).toBe(204);
    expect(await service.readModel.getItem('b1')).toBeNull();
    expect(await service.readModel.getItem('many-1999')).toBeNull();
    expect(await service.readModel.getCollection('bulk')).toBeNull();
    expect((await call('GET', '/admin/collections')).body.data.map((c: { slug: string }) => c.slug)).not.toContain('bulk');
  });
});
