// Finding #10 of issue 15: nothing throttled wrong admin tokens or failed dashboard sign-ins.
// Now each client address gets ADMIN_AUTH_MAX_FAILURES (5) failures a minute, then 429 with
// Retry-After for every admin request, even with the right token; repeated blocks double
// (docs/security.md). Each test speaks from its own loopback address (127.0.0.x) so that blocks
// do not leak between tests; the lengths of repeated blocks are checked exactly with a faked
// clock in apps/admin/src/authThrottle.unit.test.ts, and over HTTP here with 1 s blocks.
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawRequest } from './support/rawHttp.js';

let service: AllInOne;
let quick: AllInOne;

beforeAll(async () => {
  [service, quick] = await Promise.all([startAllInOne(), startAllInOne({ config: { adminAuthBlockMs: 1_000, adminAuthMaxBlockMs: 60_000 } })]);
});
afterAll(async () => {
  await Promise.all([service?.stop(), quick?.stop()]);
});

const from = (localAddress: string, target: AllInOne = service) => ({
  api: (path: string, token: string | null, options: Partial<RawRequest> = {}) =>
    rawRequest(target.adminUrl, { ...options, path, localAddress, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers } }),
  signIn: (token: string) =>
    rawRequest(target.adminUrl, {
      method: 'POST',
      path: '/dashboard/sign-in',
      localAddress,
      headers: { origin: target.adminUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}`,
    }),
});

const TOO_MANY = { error: 'Too Many Requests', message: expect.stringContaining('Too many failed admin authentications') };

describe('throttling failed admin authentications per client address', () => {
  it('blocks an address after 5 wrong tokens a minute: 429 with Retry-After, even for the right token', async () => {
    const client = from('127.0.0.1');
    for (let attempt = 1; attempt <= 5; attempt++) expect((await client.api('/admin/keys', 'wrong-token-wrong-token')).status).toBe(401);
    const blocked = await client.api('/admin/keys', 'wrong-token-wrong-token');
    expect(blocked.status).toBe(429);
    expect(blocked.json).toEqual(TOO_MANY);
    expect(blocked.headers['retry-after']).toBe('60');

    const rightToken = await client.api('/admin/keys', service.adminToken);
    expect(rightToken.status).toBe(429);
    expect(Number(rightToken.headers['retry-after'])).toBeGreaterThan(0);
    expect((await client.api('/admin/collections', service.adminToken, { method: 'POST', body: JSON.stringify({ slug: 'blocked', name: 'x' }) })).status).toBe(429);
    expect(await service.readModel.getCollection('blocked')).toBeNull();
    // The dashboard answers a readable page, signed in or not.
    const page = await client.api('/dashboard/sign-in', null);
    expect(page.status).toBe(429);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Too many failed sign-ins');
    expect(page.headers['retry-after']).toBeDefined();
    // Health probes stay answered: they reveal nothing and a process manager may share the address.
    expect((await client.api('/healthz', null)).status).toBe(200);
  });

  it('leaves other addresses alone', async () => {
    const other = from('127.0.0.2');
    expect((await other.api('/admin/keys', service.adminToken)).status).toBe(200);
    expect((await other.api('/admin/keys', 'wrong-token-wrong-token')).status).toBe(401);
    expect((await other.api('/admin/keys', service.adminToken)).status).toBe(200);
  });

  it('counts missing tokens on any protected path, known or not', async () => {
    const client = from('127.0.0.3');
    for (const path of ['/admin/keys', '/ADMIN/keys', '/metrics', '/nothing', '/admin/plan']) expect((await client.api(path, null)).status).toBe(401);
    expect((await client.api('/admin/keys', null)).status).toBe(429);
    expect((await client.api('/admin/keys', service.adminToken)).status).toBe(429);
  });

  it('throttles failed dashboard sign-ins with a readable page, and a right token then signs nobody in', async () => {
    const client = from('127.0.0.4');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const refused = await client.signIn('not-the-admin-token');
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('That admin token is not correct');
    }
    const throttled = await client.signIn('not-the-admin-token');
    expect(throttled.status).toBe(429);
    expect(throttled.headers['content-type']).toMatch(/^text\/html/);
    expect(throttled.headers['retry-after']).toBe('60');
    expect(throttled.text).toMatch(/Too many failed sign-ins from your address\. Try again in 1 minute\./);
    const right = await client.signIn(service.adminToken);
    expect(right.status).toBe(429);
    expect(right.headers['set-cookie']).toBeUndefined();
    // Sign-ins and API tokens guess the same secret: one count per address.
    expect((await client.api('/admin/keys', service.adminToken)).status).toBe(429);
    expect((await from('127.0.0.5').signIn(service.adminToken)).status).toBe(303);
  });

  it('doubles the block each time the address is blocked again', async () => {
    const client = from('127.0.0.6', quick);
    const waitOut = async () => {
      for (let tries = 0; tries < 100; tries++) {
        if ((await client.api('/admin/plan', quick.adminToken)).status === 200) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the block did not end within 10 s');
    };
    const retryAfters: string[] = [];
    for (let block = 0; block < 3; block++) {
      for (let attempt = 1; attempt <= 5; attempt++) expect((await client.api('/admin/keys', 'wrong-token-wrong-token')).status).toBe(401);
      const blocked = await client.api('/admin/keys', 'wrong-token-wrong-token');
      expect(blocked.status).toBe(429);
      retryAfters.push(String(blocked.headers['retry-after']));
      // A success while blocked is still refused and does not lift the block.
      expect((await client.api('/admin/plan', quick.adminToken)).status).toBe(429);
      if (block < 2) await waitOut();
    }
    expect(retryAfters).toEqual(['1', '2', '4']);
  });
});
