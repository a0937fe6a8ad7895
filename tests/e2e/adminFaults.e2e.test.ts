import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createAdminApp } from '@pubstream/admin';
import { ServiceUnavailableError } from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import { createLogger } from '@pubstream/observability';
import { createMemoryStores } from '@pubstream/read-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Server faults over real HTTP: an event store that breaks (500, nothing internal leaked) or is
// unreachable (503), and the log line for it carries no token.

const TOKEN = 'fault-test-admin-token-123456';
const logLines: string[] = [];
let mode: 'bug' | 'down' = 'bug';
let server: Server;
let base = '';

const failing = (): never => {
  if (mode === 'down') throw new ServiceUnavailableError('The event store is not reachable');
  throw new Error('SQLITE_CORRUPT: database disk image is malformed (internal detail)');
};
const brokenStore = new Proxy({} as EventStore, { get: () => async () => failing() });

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  const app = createAdminApp({
    eventStore: brokenStore,
    stores: createMemoryStores(),
    config: { adminToken: TOKEN, readYourWritesTimeoutMs: 100 },
    logger: createLogger({ level: 'info', name: 'admin-test', destination }),
    now: () => new Date(),
    newId: () => '00000000-0000-4000-8000-000000000000',
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const put = () =>
  fetch(`${base}/admin/collections/books/items/dune`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: { title: 'Dune' } }),
  });

describe('admin server faults', () => {
  it('answers 500 {error, message} without internal details, and logs it without the token', async () => {
    mode = 'bug';
    const response = await put();
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal Server Error', message: 'Internal Server Error' });
    const log = logLines.join('');
    expect(log).toContain('SQLITE_CORRUPT');
    expect(log).not.toContain(TOKEN);
  });

  it('answers 503 {error, message} when a backend is unavailable', async () => {
    mode = 'down';
    const response = await put();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'Service Unavailable', message: 'The event store is not reachable' });
  });
});
