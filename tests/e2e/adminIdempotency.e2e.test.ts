import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 15 finding 5 over real HTTP on the embedded profile: an Idempotency-Key is bound to the
// request it was first used with (method, path, body). Reusing it for another request is 422 and
// writes nothing; an exact retry answers exactly what the first request answered, also after the
// process restarted (the binding lives in the event log, docs/admin-api.md).

const TOKEN = 'idempotency-e2e-admin-token-0123';
const dir = mkdtempSync(join(tmpdir(), 'pubstream-idempotency-'));
const env = {
  PORT: '0',
  ADMIN_PORT: '0',
  HOST: '127.0.0.1',
  ADMIN_HOST: '127.0.0.1',
  EVENT_STORE_URL: `sqlite:${join(dir, 'events.db')}`,
  ADMIN_TOKEN: TOKEN,
  LOG_LEVEL: 'silent',
};
let service: AllInOne;

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const call = async (method: string, path: string, options: { body?: unknown; raw?: string; key?: string } = {}): Promise<Answer> => {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.adminUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
};

const head = () => service.eventStore.headPosition();

const REUSED = { error: 'Unprocessable Entity', message: 'Idempotency-Key was used with a different request' };

/** A request that reuses `key` for something else: 422, and the log does not move. */
const expectReuseRefused = async (method: string, path: string, options: { body?: unknown; key: string }) => {
  const before = await head();
  const response = await call(method, path, options);
  expect({ status: response.status, body: response.body }).toEqual({ status: 422, body: REUSED });
  expect(await head()).toBe(before);
};

beforeAll(async () => {
  service = await startAllInOne({ env });
  expect((await call('POST', '/admin/collections', { body: { slug: 'books', name: 'Books' } })).status).toBe(201);
  expect((await call('POST', '/admin/collections', { body: { slug: 'films', name: 'Films' } })).status).toBe(201);
});
afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('an Idempotency-Key reused for a different request', () => {
  it('with another body is 422 and writes nothing; the item keeps the first body', async () => {
    const first = await call('PUT', '/admin/collections/books/items/dune', { body: { data: { title: 'Dune' } }, key: 'reuse-body' });
    expect(first.status).toBe(201);
    await expectReuseRefused('PUT', '/admin/collections/books/items/dune', { body: { data: { title: 'Not Dune' } }, key: 'reuse-body' });
    expect((await call('GET', '/admin/collections/books/items/dune')).body).toMatchObject({ data: { title: 'Dune' } });
  });

  it('with another path is 422 and creates nothing there', async () => {
    expect((await call('PUT', '/admin/collections/books/items/emma', { body: { data: { title: 'Emma' } }, key: 'reuse-path' })).status).toBe(201);
    await expectReuseRefused('PUT', '/admin/collections/books/items/persuasion', { body: { data: { title: 'Emma' } }, key: 'reuse-path' });
    await expectReuseRefused('PUT', '/admin/collections/films/items/emma-film', { body: { data: { title: 'Emma' } }, key: 'reuse-path' });
    expect((await call('GET', '/admin/collections/books/items/persuasion')).status).toBe(404);
  });

  it('with another method is 422 and deletes nothing', async () => {
    expect((await call('PUT', '/admin/collections/books/items/ulysses', { body: { data: { title: 'Ulysses' } }, key: 'reuse-method' })).status).toBe(201);
    await expectReuseRefused('DELETE', '/admin/collections/books/items/ulysses', { key: 'reuse-method' });
    expect((await call('GET', '/admin/collections/books/items/ulysses')).status).toBe(200);
  });

  it('for another kind of write (a key creation after a collection creation) is 422', async () => {
    expect((await call('POST', '/admin/collections', { body: { slug: 'maps', name: 'Maps' }, key: 'reuse-kind' })).status).toBe(201);
    await expectReuseRefused('POST', '/admin/keys', { body: { name: 'Sneaky', type: 'test' }, key: 'reuse-kind' });
    expect(((await call('GET', '/admin/keys')).body as { data: { name: string }[] }).data.map((key) => key.name)).not.toContain('Sneaky');
  });
});

describe('an NDJSON import with an Idempotency-Key', () => {
  const ndjson = (lines: object[]) => `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const importCall = async (text: string, key: string): Promise<Answer> => {
    const response = await fetch(`${service.adminUrl}/admin/collections/books/items:import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-ndjson', 'idempotency-key': key },
      body: text,
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  it('answers an exact retry with the first summary, and refuses another file under the key with 422', async () => {
    const file = ndjson([{ dataId: 'imp-1', data: { n: 1 } }, { dataId: 'imp-2', data: { n: 2 } }]);
    const first = await importCall(file, 'import-key');
    expect(first).toMatchObject({ status: 200, body: { lines: 2, created: 2, failed: 0 } });
    const before = await head();
    const retry = await importCall(file, 'import-key');
    expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const other = await importCall(ndjson([{ dataId: 'imp-1', data: { n: 100 } }, { dataId: 'imp-3', data: { n: 3 } }]), 'import-key');
    expect({ status: other.status, body: other.body }).toEqual({ status: 422, body: REUSED });
    expect(await head()).toBe(before);
    expect((await call('GET', '/admin/collections/books/items/imp-1')).body).toMatchObject({ data: { n: 1 } });
    expect((await call('GET', '/admin/collections/books/items/imp-3')).status).toBe(404);
  });
});

describe('an exact retry', () => {
  it('of an item creation answers the same status and body, marked as replayed, and appends nothing', async () => {
    const first = await call('PUT', '/admin/collections/books/items/middlemarch', { body: { data: { title: 'Middlemarch', year: 1871 } }, key: 'exact-put' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await head();
    // Key order and whitespace do not make it another request.
    const retry = await call('PUT', '/admin/collections/books/items/middlemarch', { raw: '{ "data": { "year": 1871, "title": "Middlemarch" } }', key: 'exact-put' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await head()).toBe(before);
  });

  it('of a write the item has moved on from still answers the first answer', async () => {
    const first = await call('PUT', '/admin/collections/books/items/walden', { body: { data: { v: 1 } }, key: 'exact-old' });
    expect((await call('PUT', '/admin/collections/books/items/walden', { body: { data: { v: 2 } } })).status).toBe(200);
    const retry = await call('PUT', '/admin/collections/books/items/walden', { body: { data: { v: 1 } }, key: 'exact-old' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
    expect((await call('GET', '/admin/collections/books/items/walden')).body).toMatchObject({ data: { v: 2 } });
  });

  it('of a collection creation, an update and a delete answers each the same', async () => {
    const writes: [string, string, unknown][] = [
      ['POST', '/admin/collections', { slug: 'poems', name: 'Poems' }],
      ['PATCH', '/admin/collections/poems', { name: 'All poems' }],
      ['PUT', '/admin/collections/poems/items/ode', { data: { title: 'Ode' } }],
      ['DELETE', '/admin/collections/poems/items/ode', undefined],
      ['PUT', '/admin/plan', { plan: 'business', monthlyQuota: 1000 }],
    ];
    for (const [method, path, body] of writes) {
      const key = `exact-${method}-${path}`;
      const first = await call(method, path, { body, key });
      expect(first.status, `${method} ${path}`).toBeLessThan(300);
      const before = await head();
      const retry = await call(method, path, { body, key });
      expect({ status: retry.status, body: retry.body }, `${method} ${path}`).toEqual({ status: first.status, body: first.body });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await head()).toBe(before);
    }
  });

  it('of a key creation answers the same status and key record, without the raw key (never stored)', async () => {
    const body = { name: 'Retried', type: 'live', allowedDomains: ['example.com'] };
    const first = await call('POST', '/admin/keys', { body, key: 'exact-key' });
    expect(first.status).toBe(201);
    expect((first.body as { key: string }).key).toMatch(/^pk_live_/);
    const retry = await call('POST', '/admin/keys', { body, key: 'exact-key' });
    expect(retry.status).toBe(201);
    const { key: _key, message: _message, ...record } = first.body as Record<string, unknown>;
    expect(retry.body).toEqual({ ...record, key: null, message: expect.stringContaining('shown only once') });
    const keys = ((await call('GET', '/admin/keys')).body as { data: { name: string }[] }).data;
    expect(keys.filter((key) => key.name === 'Retried')).toHaveLength(1);
  });

  it('after the process restarted answers the same, and a reuse is still refused', async () => {
    const first = await call('PUT', '/admin/collections/books/items/beloved', { body: { data: { title: 'Beloved' } }, key: 'exact-restart' });
    expect(first.status).toBe(201);
    await service.stop();
    service = await startAllInOne({ env });
    const retry = await call('PUT', '/admin/collections/books/items/beloved', { body: { data: { title: 'Beloved' } }, key: 'exact-restart' });
    expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    await expectReuseRefused('PUT', '/admin/collections/books/items/beloved', { body: { data: { title: 'Jazz' } }, key: 'exact-restart' });
  });
});
