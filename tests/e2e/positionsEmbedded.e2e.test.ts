import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAllInOne, type AllInOne } from '@pubstream/cli';

// Positions in the embedded profile (`pubstream start`): the admin's writes carry X-Position, and
// `?minPosition=` waits on the in-process projector.

let service: AllInOne;
let key = '';

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${service.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, position: res.headers.get('x-position'), body: (await res.text()) || null };
};
const read = (path: string) => fetch(`${service.publicUrl}${path}`, { headers: { 'X-API-Key': key } });

beforeAll(async () => {
  service = await startAllInOne({ config: { minPositionWaitMs: 1_500 } });
  await admin('POST', '/admin/collections', { slug: 'notes', name: 'Notes' });
  key = (JSON.parse((await admin('POST', '/admin/keys', { name: 'e2e', type: 'live', allowedDomains: [] })).body ?? '{}') as { key: string }).key;
});
afterAll(async () => {
  await service?.stop();
});

it('an admin write answers X-Position; reads with minPosition see it, wait for a later one, or answer 503 past the wait', async () => {
  const written = await admin('PUT', '/admin/collections/notes/items/n1', { data: { text: 'one' } });
  expect(written.status).toBe(201);
  expect(written.position).toMatch(/^\d+$/);
  const position = Number(written.position);

  const item = await read(`/public/data/n1?minPosition=${position}`);
  expect(item.status).toBe(200);
  expect(item.headers.get('x-position')).toBe(String(position));
  const page = await read(`/public/collections/notes/data?minPosition=${position}`);
  expect(page.headers.get('x-position')).toBe(String(position));

  // A read asking for the next position waits for the write that makes it.
  const pending = read(`/public/data/n1?minPosition=${position + 1}`);
  const second = await admin('PUT', '/admin/collections/notes/items/n1', { data: { text: 'two' } });
  expect(Number(second.position)).toBeGreaterThan(position);
  const answered = await pending;
  expect(answered.status).toBe(200);
  expect(((await answered.json()) as { data: unknown }).data).toEqual({ text: 'two' });

  const tooFar = await read(`/public/data/n1?minPosition=${Number(second.position) + 1000}`);
  expect(tooFar.status).toBe(503);
  expect(tooFar.headers.get('retry-after')).toBe('1');

  const feed = await read(`/public/collections/notes/changes?since=${position - 1}`);
  const body = (await feed.json()) as { changes: { dataId: string; data: unknown }[]; nextSince: number };
  expect(body.changes.map((c) => c.data)).toEqual([{ text: 'one' }, { text: 'two' }]);
  expect(body.nextSince).toBe(Number(second.position));
});

it('a changes `since` ahead of the node waits for it and never skips the changes before it; past the wait, 503', async () => {
  const head = Number((await admin('PUT', '/admin/collections/notes/items/n2', { data: { text: 'a' } })).position);
  // A cursor from a faster node (or a bogus one): answering at once with nextSince = since would
  // make the client skip every change up to it.
  const ahead = await read(`/public/collections/notes/changes?since=${head + 1000}`);
  expect(ahead.status).toBe(503);
  expect(ahead.headers.get('retry-after')).toBe('1');
  const pending = read(`/public/collections/notes/changes?since=${head + 1}`);
  const next = Number((await admin('PUT', '/admin/collections/notes/items/n2', { data: { text: 'b' } })).position);
  expect(next).toBeGreaterThan(head);
  const answered = await pending;
  expect(answered.status).toBe(200);
  const body = (await answered.json()) as { nextSince: number };
  expect(body.nextSince).toBeGreaterThanOrEqual(next);
});
