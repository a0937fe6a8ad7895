// 503 from a real server: the all-in-one process on a Redis read model whose Redis is killed.
// The client maps it to ServiceUnavailableError, and with retries on rides out the outage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, ServerError, ServiceUnavailableError, type FetchLike } from '@pubstream/client';
import { startLocalRedis, type LocalRedis } from '@pubstream/testing';
import type { AllInOne } from '../../apps/cli/src/allInOne.js';
import { adminRequest, createTestKey, startClientServer } from './support/clientServer.js';

const dataDir = mkdtempSync(join(tmpdir(), 'pubstream-client-redis-'));
const redisDir = mkdtempSync(join(tmpdir(), 'pubstream-client-redis-aof-'));
let redis: LocalRedis;
let server: AllInOne;
let key: string;

const admin = (method: string, path: string, body?: unknown) => adminRequest(server, method, path, body);

beforeAll(async () => {
  redis = await startLocalRedis({ appendonly: true, dir: redisDir });
  server = await startClientServer(dataDir, { REDIS_URL: redis.url });
  await admin('POST', '/admin/collections', { slug: 'docs', name: 'Docs', sortableFields: [] });
  await admin('PUT', '/admin/collections/docs/items/doc-1', { data: { title: 'kept' } });
  key = await createTestKey(server, 'redis');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(redisDir, { recursive: true, force: true });
});

it('maps a 503 to ServiceUnavailableError and, with retries, waits out a Redis outage', async () => {
  const client = createClient({ baseUrl: server.publicUrl, apiKey: key });
  await expect(client.fetchData('doc-1')).resolves.toMatchObject({ data: { title: 'kept' } });

  await redis.kill();
  const once = createClient({ baseUrl: server.publicUrl, apiKey: key, retry: { maxAttempts: 1 } });
  const error = await once.fetchData('doc-1').then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ServiceUnavailableError);
  expect(error).toBeInstanceOf(ServerError);
  expect(error).toMatchObject({ status: 503, error: 'Service Unavailable' });

  const statuses: number[] = [];
  const recording: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  const patient = createClient({
    baseUrl: server.publicUrl,
    apiKey: key,
    fetch: recording,
    retry: { maxAttempts: 50, maxElapsedMs: 60_000, baseDelayMs: 200, maxDelayMs: 400 },
  });
  const pending = patient.fetchData('doc-1');
  await expect.poll(() => statuses.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await redis.restart();
  await expect(pending).resolves.toMatchObject({ dataId: 'doc-1', data: { title: 'kept' } });
  expect(statuses[0]).toBe(503);
  expect(statuses.at(-1)).toBe(200);
}, 90_000);
