import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '@pubstream/testing';
import { startPubstreamProcess, type StartedProcess } from './support/startProcess.js';
import { connectToSomeWorker, connectToWorker, type Answer, type WorkerConnection } from './support/workerConnections.js';

// The per-address caps of docs/security.md with API_WORKERS=2: the workers share the port, so an
// address's connections and streams are counted in the primary, not per worker. Without that, a
// cap of N admitted about 2N (N on each worker).

const MAX_CONNECTIONS = 10;
const MAX_STREAMS = 2;
let service: StartedProcess;
const opened: WorkerConnection[] = [];
const agents: http.Agent[] = [];

/** One request on a new keep-alive connection, kept open. */
const onNewConnection = (path: string): Promise<Answer> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return new Promise((resolve, reject) => {
    http
      .get(`${service.publicUrl}${path}`, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
};

const closeAll = () => {
  for (const connection of opened.splice(0)) connection.close();
  for (const agent of agents.splice(0)) agent.destroy();
};

beforeAll(async () => {
  service = await startPubstreamProcess({ API_WORKERS: '2', MAX_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS), MAX_STREAMS_PER_ADDRESS: String(MAX_STREAMS) });
  const collection = await fetch(`${service.adminUrl}/admin/collections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ slug: 'news', name: 'News' }),
  });
  expect(collection.status).toBe(201);
}, 120_000);

afterAll(async () => {
  closeAll();
  await service?.stop();
});

it(`caps the connections of one address at MAX_CONNECTIONS_PER_ADDRESS=${MAX_CONNECTIONS} across both workers`, async () => {
  const workers = new Set<string>();
  for (let i = 0; i < MAX_CONNECTIONS; i++) {
    const connection = await connectToSomeWorker(service.publicUrl);
    opened.push(connection);
    workers.add(connection.worker);
  }
  expect(workers).toEqual(new Set(['1', '2']));
  const refused = await onNewConnection('/healthz');
  expect(refused.status).toBe(429);
  expect(refused.headers['retry-after']).toBe('1');
  expect(JSON.parse(refused.body)).toEqual({ error: 'Too Many Requests', message: `Too many open connections from your address (at most ${MAX_CONNECTIONS})` });
  // A closed connection gives its place back.
  opened.pop()?.close();
  await eventually('a connection once one closed', async () => ((await onNewConnection('/healthz')).status === 200 ? true : undefined), 10_000, 100);
  closeAll();
});

it(`caps the streams of one address at MAX_STREAMS_PER_ADDRESS=${MAX_STREAMS} across both workers`, async () => {
  const created = await fetch(`${service.adminUrl}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'caps', type: 'live', allowedDomains: [] }),
  });
  const { key } = (await created.json()) as { key: string };
  const path = `/subscribe?${new URLSearchParams({ apiKey: key, collections: 'news' }).toString()}`;
  // Once every earlier connection is gone (released over IPC), one stream on each worker.
  const first = await eventually('a connection', async () => connectToSomeWorker(service.publicUrl).catch(() => undefined), 10_000, 100);
  const second = await connectToWorker(service.publicUrl, first.worker === '1' ? '2' : '1');
  opened.push(first, second);
  const streams = [await first.stream(path), await second.stream(path)];
  expect(streams.map((stream) => stream.status)).toEqual([200, 200]);
  for (const worker of ['1', '2']) {
    const third = await connectToWorker(service.publicUrl, worker);
    opened.push(third);
    const refused = await third.get(path);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatch(/Too many concurrent streams from this address/);
  }
  streams[0]?.close();
  await eventually(
    'a stream once one was closed',
    async () => {
      const connection = await connectToSomeWorker(service.publicUrl);
      opened.push(connection);
      const stream = await connection.stream(path);
      if (stream.status === 200) return true;
      stream.close();
      return undefined;
    },
    15_000,
    100,
  );
  closeAll();
});
