import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSse, type SseTestClient } from '../../apps/api/src/subscribe/testing/sseTestClient.js';
import { adminHttp } from '../../apps/cli/src/distributed/testing/adminHttp.js';

// Read, then subscribe (issue 17): a page read over REST answers X-Position P; a stream opened with
// from=P delivers exactly the changes after that read, nothing twice, no snapshot — on the whole
// embedded process (admin writes, the log, the projector, the public API).

const ORIGIN = 'https://shop.example.com';
let service: AllInOne;
let admin: ReturnType<typeof adminHttp>;
const clients: SseTestClient[] = [];

beforeAll(async () => {
  service = await startAllInOne();
  admin = adminHttp(service.adminUrl, service.adminToken);
});
afterAll(async () => {
  for (const client of clients) client.close();
  await service?.stop();
});

it('reads a page (X-Position P), writes, subscribes with from=P: exactly the changes after P, in order, once; then the page and ready', async () => {
  await admin('POST', '/admin/collections', { slug: 'shelf', name: 'Shelf' });
  await admin('POST', '/admin/collections', { slug: 'elsewhere', name: 'Elsewhere' });
  for (const dataId of ['s1', 's2', 's3']) await admin('PUT', `/admin/collections/shelf/items/${dataId}`, { data: { v: 0 } });
  const { key } = await admin<{ key: string }>('POST', '/admin/keys', { name: 'reader', type: 'live', allowedDomains: ['shop.example.com'] });

  const read = await fetch(`${service.publicUrl}/public/collections/shelf/data`, { headers: { 'X-API-Key': key } });
  expect(read.status).toBe(200);
  const position = read.headers.get('x-position');
  expect(position).toMatch(/^[0-9]+$/);
  const page = (await read.json()) as { data: { dataId: string }[] };
  expect(page.data.map((item) => item.dataId).sort()).toEqual(['s1', 's2', 's3']);

  await admin('PUT', '/admin/collections/shelf/items/s1', { data: { v: 1 } });
  await admin('PUT', '/admin/collections/shelf/items/s4', { data: { v: 0 } });
  await admin('DELETE', '/admin/collections/shelf/items/s2');
  await admin('PUT', '/admin/collections/elsewhere/items/e1', { data: { v: 0 } });
  await admin('PUT', '/admin/collections/shelf/items/s1', { data: { v: 2 } });

  const params = new URLSearchParams({ apiKey: key, collections: 'shelf', dataIds: 's1,s2,s3,s4', from: String(position) });
  const stream = await openSse(`${service.publicUrl}/subscribe?${params.toString()}`, { Origin: ORIGIN });
  clients.push(stream);
  expect(stream.status).toBe(200);
  await stream.waitFor((e) => e.event === 'ready', 'ready');
  const described = stream.events.map((e) =>
    e.event === 'ready' || e.event === 'connected' ? e.event : e.data.collectionSlug ? `page ${e.data.data.total}` : `${e.event} ${e.data.dataId} ${JSON.stringify(e.data.data)}`,
  );
  expect(described).toEqual(['connected', 'update s1 {"v":1}', 'update s4 {"v":0}', 'delete s2 {}', 'update s1 {"v":2}', 'page 3', 'ready']);
  // Each change with its own id, after P and increasing; ready's id is the position everything up to which was sent.
  const changeIds = stream.events.flatMap((e, i) => (e.data?.dataId ? [Number(stream.ids[i])] : []));
  expect(changeIds[0]).toBeGreaterThan(Number(position));
  expect(changeIds).toEqual([...new Set(changeIds)].sort((a, b) => a - b));
  expect(Number(stream.lastEventId())).toBeGreaterThanOrEqual(changeIds.at(-1) as number);
});
