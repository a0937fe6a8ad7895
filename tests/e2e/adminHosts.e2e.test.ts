// Finding #1 of issue 15, second half: the admin listener answered any Host, so a page on
// evil.example whose name is rebound to 127.0.0.1 (DNS rebinding) could drive the dashboard and
// the admin API from a victim's browser. ADMIN_ALLOWED_HOSTS now refuses other Host values with
// 421 on every admin-port path, before authentication (docs/security.md).
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './support/rawHttp.js';

let service: AllInOne;
let open: AllInOne;
let named: AllInOne;

beforeAll(async () => {
  [service, open, named] = await Promise.all([
    startAllInOne(),
    startAllInOne({ config: { adminAllowedHosts: ['*'] } }),
    startAllInOne({ env: { PORT: '0', ADMIN_PORT: '0', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', EVENT_STORE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ADMIN_ALLOWED_HOSTS: 'admin.internal' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([service?.stop(), open?.stop(), named?.stop()]);
});

const asHost = (target: AllInOne, host: string, path: string, options: { method?: string; token?: boolean; headers?: Record<string, string>; body?: string } = {}) =>
  rawRequest(target.adminUrl, {
    method: options.method,
    path,
    body: options.body,
    headers: { host, ...(options.token === true ? { authorization: `Bearer ${target.adminToken}` } : {}), ...options.headers },
  });

const MISDIRECTED = { error: 'Misdirected Request', message: expect.stringContaining('ADMIN_ALLOWED_HOSTS') };

describe('Host check on the admin port', () => {
  it('answers a rebinding-style Host with 421 JSON on the dashboard, the API and the probes', async () => {
    const port = new URL(service.adminUrl).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `localhost.evil.example`]) {
      for (const path of ['/', '/dashboard/sign-in', '/healthz', '/admin/keys', '/ADMIN/keys', '/no-such-path']) {
        const response = await asHost(service, host, path, { token: true });
        expect(response.status, `${host} ${path}`).toBe(421);
        expect(response.json).toEqual(MISDIRECTED);
      }
    }
  });

  it('creates no session and no key for a request with a foreign Host, even with the right token', async () => {
    const port = new URL(service.adminUrl).port;
    const signIn = await asHost(service, `evil.example:${port}`, '/dashboard/sign-in', {
      method: 'POST',
      headers: { origin: `http://evil.example:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(service.adminToken)}`,
    });
    expect(signIn.status).toBe(421);
    expect(signIn.headers['set-cookie']).toBeUndefined();
    const before = (await service.admin.listKeys()).length;
    const created = await asHost(service, `evil.example:${port}`, '/admin/keys', { method: 'POST', token: true, body: JSON.stringify({ name: 'rebound', type: 'live' }) });
    expect(created.status).toBe(421);
    expect((await service.admin.listKeys()).length).toBe(before);
  });

  it('answers the loopback names in any case and with any port', async () => {
    const port = new URL(service.adminUrl).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`, '127.0.0.1']) {
      expect((await asHost(service, host, '/healthz')).status, host).toBe(200);
      expect((await asHost(service, host, '/admin/keys', { token: true })).status, host).toBe(200);
      expect((await asHost(service, host, '/dashboard/sign-in')).status, host).toBe(200);
    }
  });

  it('answers any Host with ADMIN_ALLOWED_HOSTS=*, and exactly the listed names otherwise', async () => {
    expect((await asHost(open, 'evil.example:8081', '/admin/keys', { token: true })).status).toBe(200);
    expect((await asHost(named, 'Admin.Internal:8081', '/admin/keys', { token: true })).status).toBe(200);
    expect((await asHost(named, 'localhost', '/healthz')).status).toBe(421);
    expect((await asHost(named, 'evil.example', '/healthz')).status).toBe(421);
  });
});
