// The Pubstream image as `docker run -p 8080:8080 -p 8081:8081 pubstream:local` gives it: the
// embedded profile out of the box (demo data, a generated admin token printed once), as a non-root
// user, healthy by its own HEALTHCHECK, with the admin answering only loopback Host names (421
// otherwise; docs/operations.md, "Containers").
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { describeWithContainers } from '@pubstream/testing';

/** GET with a chosen Host header (fetch does not let one set it). */
const getWithHost = (port: number, path: string, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });

describeWithContainers('the Pubstream image with its defaults', ['pubstream'], (support) => {
  let container: StartedTestContainer;
  let banner = '';

  beforeAll(async () => {
    // No command and no environment: exactly what the image does by itself.
    container = await new GenericContainer(support.images.pubstream)
      .withExposedPorts(8080, 8081)
      .withLabels(support.labels)
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(120_000)
      .start();
    banner = await new Promise<string>((resolve, reject) => {
      let text = '';
      void container.logs().then((stream) => {
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (/Try it:[\s\S]*curl/.test(text)) resolve(text);
        });
        stream.on('error', reject);
      });
      setTimeout(() => reject(new Error(`no banner in the log:\n${text}`)), 30_000).unref();
    });
  }, 180_000);

  afterAll(async () => {
    await container?.stop();
  });

  it('runs `pubstream start` as the non-root user pubstream, with the embedded defaults', async () => {
    expect((await container.exec(['id', '-u'])).output.trim()).toBe('10001');
    const cmdline = (await container.exec(['cat', '/proc/1/cmdline'])).output.split('\0').filter(Boolean);
    expect(cmdline).toEqual(['node', '--enable-source-maps', '/app/apps/cli/dist/pubstream.mjs', 'start']);
    expect(banner).toContain('embedded profile');
    expect(banner).toMatch(/admin token adm_/);
  });

  it('serves the demo data on the published public port with the printed test key', async () => {
    const key = /(pk_test_[0-9A-Za-z]{32})/.exec(banner)?.[1] ?? '';
    const response = await fetch(`http://127.0.0.1:${container.getMappedPort(8080)}/public/collections/demo/data`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { total: number }).total).toBe(4);
  });

  it('answers the admin port under the loopback names only', async () => {
    const port = container.getMappedPort(8081);
    expect(await getWithHost(port, '/healthz', `localhost:${port}`)).toBe(200);
    expect(await getWithHost(port, '/healthz', `127.0.0.1:${port}`)).toBe(200);
    expect(await getWithHost(port, '/healthz', 'rebound.example')).toBe(421);
  });
});
