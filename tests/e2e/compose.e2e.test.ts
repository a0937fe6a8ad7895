// infra/docker-compose.yml for real, with Debian's docker-compose (1.29) and the local images:
// Redis, Kafka, the admin, a projector and two API nodes come up healthy; a write through the
// admin is read through BOTH API nodes and streamed live from the second one (through Kafka); then
// everything, volumes included, is torn down. Ports are free ones, on 127.0.0.1 only.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createClient } from '@pubstream/client';
import { describeWithContainers, freePort } from '@pubstream/testing';

const ROOT = resolve(import.meta.dirname, '../..');
describeWithContainers('infra/docker-compose.yml: the distributed profile with docker-compose', ['pubstream', 'redis', 'kafka', 'compose'], (support) => {
  // Named after the run, so that scripts/test.mjs can take down what an interrupted run left.
  const project = `pubstream-test-${support.labels['org.pubstream.test-run']}`.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  const adminToken = randomBytes(24).toString('hex');
  let ports: Record<'api1' | 'api2' | 'admin' | 'redis' | 'kafka', number>;
  let env: NodeJS.ProcessEnv;

  const compose = (args: string[], timeout = 300_000) =>
    new Promise<string>((resolvePromise, reject) => {
      execFile(support.compose ?? 'docker-compose', ['-p', project, '-f', join(ROOT, 'infra', 'docker-compose.yml'), ...args], { env, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`docker-compose ${args.join(' ')} failed: ${stderr || error.message}`)) : resolvePromise(`${stdout}${stderr}`),
      );
    });
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${ports.admin}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };

  beforeAll(async () => {
    ports = { api1: await freePort(), api2: await freePort(), admin: await freePort(), redis: await freePort(), kafka: await freePort() };
    env = {
      PATH: process.env.PATH,
      ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
      ADMIN_TOKEN: adminToken,
      PUBSTREAM_IMAGE: support.images.pubstream,
      REDIS_IMAGE: support.images.redis,
      KAFKA_IMAGE: support.images.kafka,
      PUBSTREAM_API1_PORT: String(ports.api1),
      PUBSTREAM_API2_PORT: String(ports.api2),
      PUBSTREAM_ADMIN_PORT: String(ports.admin),
      PUBSTREAM_REDIS_PORT: String(ports.redis),
      PUBSTREAM_KAFKA_PORT: String(ports.kafka),
      LOG_LEVEL: 'warn',
    };
    // compose 1.29 starts each service once the ones it depends on are healthy.
    await compose(['up', '-d', '--no-build']);
    const ids = (await compose(['ps', '-q'])).trim().split('\n');
    console.log(`[containers] compose project ${project}: ${ids.length} containers (${ids.map((id) => id.slice(0, 12)).join(', ')})`);
    try {
      for (const port of [ports.api1, ports.api2, ports.admin]) {
        const ready = async () => expect((await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
        await vi.waitFor(ready, { timeout: 120_000, interval: 500 });
      }
    } catch (error) {
      // What CI needs to see when the profile does not come up.
      throw new Error(`${String(error)}\n${await compose(['ps'])}\n${await compose(['logs', '--no-color', '--tail', '15'])}`, { cause: error });
    }
  }, 420_000);

  afterAll(async () => {
    if (!env) return;
    // Everything, whether the test passed or not: containers, the network and the volumes.
    await compose(['down', '-v', '--remove-orphans', '-t', '10'], 180_000);
  }, 200_000);

  it('publishes every port on 127.0.0.1 only', async () => {
    const described = await compose(['ps']);
    for (const port of Object.values(ports)) expect(described).toContain(`127.0.0.1:${port}->`);
    expect(described).not.toMatch(/0\.0\.0\.0:\d+->|:::\d+->/);
  });

  it('answers public reads through both API nodes and streams an update from the second', async () => {
    await admin('POST', '/admin/collections', { slug: 'news', name: 'News', sortableFields: [] });
    await admin('PUT', '/admin/collections/news/items/first', { data: { title: 'First' } });
    const { key } = (await admin('POST', '/admin/keys', { name: 'compose', type: 'test', allowedDomains: [] })) as { key: string };

    // The projector may still be starting (it waits for a healthy admin) or catching up: until then
    // an API node cannot tell an unknown key from a new one and answers 503 with Retry-After, which
    // a client retries. Anything else (401, 404, 500) fails at once.
    const readFirst = async (port: number) => {
      const response = await fetch(`http://127.0.0.1:${port}/public/collections/news/data`, { headers: { 'X-API-Key': key } });
      if (response.status === 503) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        throw new Error(`api on ${port}: 503 ${await response.text()}`);
      }
      return response;
    };
    for (const port of [ports.api1, ports.api2]) {
      const response = await vi.waitFor(() => readFirst(port), { timeout: 60_000, interval: 500 });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: { dataId: string }[] }).data.map((item) => item.dataId)).toEqual(['first']);
    }

    const live = createClient({ baseUrl: `http://127.0.0.1:${ports.api2}`, apiKey: key, reactive: true });
    try {
      const seen: unknown[] = [];
      let subscribed = () => {};
      const ready = new Promise<void>((resolvePromise) => (subscribed = resolvePromise));
      live.watchData('second', (item) => (item === null ? subscribed() : seen.push(item.data)));
      await ready;
      // Written through the admin, projected by the projector, published to Kafka, fanned out by api-2.
      await admin('PUT', '/admin/collections/news/items/second', { data: { title: 'Second' } });
      await vi.waitFor(() => expect(seen).toEqual([{ title: 'Second' }]), { timeout: 20_000 });
    } finally {
      live.close();
    }
    const fromFirst = await fetch(`http://127.0.0.1:${ports.api1}/public/data/second`, { headers: { 'X-API-Key': key } });
    expect(fromFirst.status).toBe(200);
  }, 120_000);
});
