import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pubstream/testing';
import { startPubstreamProcess, type StartedProcess } from './support/startProcess.js';
import { connectToSomeWorker, connectToWorker, type WorkerConnection } from './support/workerConnections.js';

// `pubstream start` with API_WORKERS=2 on a SQLite log file (issue 20, "Every core"): two worker
// processes share the public port, and what must be exact stays exact across them (rate limits,
// key deletion at once, the per-key stream cap), every worker streams every write, and usage is whole.

let service: StartedProcess;
const connections: WorkerConnection[] = [];

const admin = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${service.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
};

const createKey = async (rateLimit?: number): Promise<{ keyId: string; key: string }> => {
  const created = await admin('POST', '/admin/keys', { name: 'workers', type: 'live', rateLimit, allowedDomains: [] });
  expect(created.status).toBe(201);
  return created.body as { keyId: string; key: string };
};

/** A connection on each worker: [worker "1"'s, worker "2"'s] in some order. */
const onBothWorkers = async (): Promise<[WorkerConnection, WorkerConnection]> => {
  const first = await connectToSomeWorker(service.publicUrl);
  const second = await connectToWorker(service.publicUrl, first.worker === '1' ? '2' : '1');
  connections.push(first, second);
  return [first, second];
};

beforeAll(async () => {
  service = await startPubstreamProcess({ API_WORKERS: '2', MAX_STREAMS_PER_KEY: '2', LOG_LEVEL: 'info' });
  expect((await admin('POST', '/admin/collections', { slug: 'shop', name: 'Shop' })).status).toBe(201);
  expect((await admin('PUT', '/admin/collections/shop/items/teapot', { data: { price: 39 } })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await service?.stop();
});

describe('API_WORKERS=2 on a SQLite log file', () => {
  it('starts two worker processes that both answer on the one public port', async () => {
    expect(service.output()).toMatch(/public API\s+http\S+ \(2 API worker processes\)/);
    const [a, b] = await onBothWorkers();
    expect(new Set([a.worker, b.worker])).toEqual(new Set(['1', '2']));
    const { key } = await createKey();
    for (const connection of [a, b]) expect((await connection.get('/public/data/teapot', { 'X-API-Key': key })).status).toBe(200);
  });

  it('admits exactly the rate limit of a key across both workers', async () => {
    const [a, b] = await onBothWorkers();
    const { key } = await createKey(4);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await (i % 2 === 0 ? a : b).get('/public/data/teapot', { 'X-API-Key': key })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
    // The first four are the admitted ones, two on each worker.
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
  });

  it('refuses a deleted key (401) on every worker as soon as the DELETE has answered, even behind a large import', async () => {
    const [a, b] = await onBothWorkers();
    const { keyId, key } = await createKey();
    for (const connection of [a, b]) expect((await connection.get('/public/data/teapot', { 'X-API-Key': key })).status).toBe(200);
    // An import in flight puts thousands of events before the deletion in the log: each worker's
    // projector must apply them all before it sees the deletion, and the DELETE must wait for that.
    const lines = Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ dataId: `bulk-${i}`, data: { n: i, text: 'x'.repeat(200) } })).join('\n');
    const importing = fetch(`${service.adminUrl}/admin/collections/shop/items:import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/x-ndjson' },
      body: lines,
    });
    await eventually('the import writing', async () => ((await a.get('/public/data/bulk-0', { 'X-API-Key': key })).status === 200 ? true : undefined), 30_000, 20);
    expect((await admin('DELETE', `/admin/keys/${keyId}`)).status).toBe(204);
    for (const connection of [a, b]) {
      const refused = await connection.get('/public/data/teapot', { 'X-API-Key': key });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toEqual({ error: 'Unauthorized', message: 'Invalid API key' });
    }
    expect((await importing).status).toBe(200);
  }, 60_000);

  it('holds the per-key stream cap (MAX_STREAMS_PER_KEY=2) across workers, and every stream gets a write', async () => {
    const [a, b] = await onBothWorkers();
    const { key } = await createKey();
    const path = `/subscribe?${new URLSearchParams({ apiKey: key, collections: 'shop' }).toString()}`;
    const streams = [await a.stream(path), await b.stream(path)];
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    for (const worker of [a.worker, b.worker]) {
      const third = await connectToWorker(service.publicUrl, worker);
      connections.push(third);
      const refused = await third.get(path);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatch(/Too many concurrent streams/);
    }
    expect((await admin('PUT', '/admin/collections/shop/items/kettle-on-both', { data: { price: 12 } })).status).toBe(201);
    for (const stream of streams) {
      await eventually('the write on the stream', async () => (stream.text().includes('kettle-on-both') ? true : undefined), 15_000, 50);
    }
    streams[0]?.close();
    // The slot of the closed stream is free again, on the other worker too.
    const reopened = await eventually(
      'a stream once one was closed',
      async () => {
        const connection = await connectToWorker(service.publicUrl, b.worker);
        connections.push(connection);
        const stream = await connection.stream(path);
        if (stream.status === 200) return stream;
        stream.close();
        return undefined;
      },
      15_000,
      100,
    );
    expect(reopened.status).toBe(200);
    reopened.close();
    streams[1]?.close();
  });

  it("shows both workers' requests in the admin's usage", async () => {
    const [a, b] = await onBothWorkers();
    const { keyId, key } = await createKey();
    for (const connection of [a, a, a, b, b]) expect((await connection.get('/public/data/teapot', { 'X-API-Key': key })).status).toBe(200);
    const count = await eventually(
      'five requests counted',
      async () => {
        const keys = (await admin('GET', '/admin/keys')).body.data as { keyId: string; requestCount: number }[];
        const row = keys.find((entry) => entry.keyId === keyId);
        return row && row.requestCount >= 5 ? row.requestCount : undefined;
      },
      15_000,
      200,
    );
    expect(count).toBe(5);
  });

  it('replaces a worker that dies (logged), frees its streams at once, and keeps serving meanwhile', async () => {
    const { key } = await createKey();
    const path = `/subscribe?${new URLSearchParams({ apiKey: key, collections: 'shop' }).toString()}`;
    const [a, b] = await onBothWorkers();
    const streams = [await a.stream(path), await b.stream(path)];
    expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
    const workerPids = execFileSync('pgrep', ['-P', String(service.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
    expect(workerPids).toHaveLength(2);
    process.kill(workerPids[0] ?? 0, 'SIGKILL');
    await eventually('the stream of the killed worker ended', async () => (streams.some((stream) => stream.ended()) ? true : undefined), 15_000, 20);
    // The other worker's stream goes on.
    expect(streams.filter((stream) => stream.ended())).toHaveLength(1);
    // The other worker still serves, and the dead one's slot is free at once (well before the slots'
    // 15 s TTL would expire it): the cap (2) admits a new stream.
    const replacement = await eventually('a stream admitted again', async () => {
      const connection = await connectToSomeWorker(service.publicUrl);
      connections.push(connection);
      const stream = await connection.stream(path);
      if (stream.status === 200) return { connection, stream };
      stream.close();
      return undefined;
    }, 8_000, 200);
    replacement.stream.close();
    await eventually('a third worker', async () => ((await connectToSomeWorker(service.publicUrl).then((c) => (connections.push(c), c.worker))) === '3' ? true : undefined), 60_000, 200);
    expect(service.output()).toMatch(/API worker exited; starting a new one/);
  }, 120_000);
});
