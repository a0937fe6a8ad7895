// Finding #1 of issue 15: the admin token check compared paths case-sensitively while the router
// matched them case-insensitively, so `GET /ADMIN/keys` listed the keys without a token and
// `POST /ADMIN/keys` created a live key. Admin auth is now default-deny behind one path
// normalisation shared by the check and the routers (docs/security.md). Every request here goes
// out byte for byte as written (tests/e2e/support/rawHttp.ts): fetch would tidy the paths first.
import { startAllInOne, type AllInOne } from '@pubstream/cli';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, type RawRequest } from './support/rawHttp.js';

let service: AllInOne;

const send = (options: RawRequest & { token?: boolean }) =>
  rawRequest(service.adminUrl, { ...options, headers: { ...(options.token === true ? { authorization: `Bearer ${service.adminToken}` } : {}), ...options.headers } });

const keyCount = async () => {
  const listed = await send({ path: '/admin/keys', token: true });
  expect(listed.status).toBe(200);
  return (listed.json as { data: unknown[] }).data.length;
};

beforeAll(async () => {
  // Many refusals from one address on purpose: the guessing throttle (adminThrottle.e2e.test.ts)
  // is raised here so that each answer is the authentication check's own, not a 429.
  service = await startAllInOne({ config: { adminAuthMaxFailures: 100_000 } });
});
afterAll(async () => {
  await service?.stop();
});

/** Spellings of protected paths, and what the same request answers WITH the token. */
const SPELLINGS: readonly (readonly [path: string, withToken: number])[] = [
  ['/ADMIN/keys', 404],
  ['/Admin/keys', 404],
  ['/admin/KEYS', 404],
  ['/%61dmin/keys', 200],
  ['/%61%64%6D%69%6E/%6b%65%79%73', 200],
  ['//admin/keys', 200],
  ['/admin//keys', 200],
  ['/admin/./keys', 200],
  ['/./admin/keys', 200],
  ['/admin/x/../keys', 200],
  ['/admin/%2e/keys', 200],
  ['/admin/x/%2E%2E/keys', 200],
  ['/admin/keys/', 200],
  ['/admin/keys//', 200],
  ['/admin/keys?x=1', 200],
  ['/dashboard/../admin/keys', 200],
  ['/../admin/keys', 200],
  ['/DASHBOARD/keys', 404],
  ['/Dashboard/sign-in/../../admin/keys', 200],
  ['/admin%2Fkeys', 404],
  ['/admin', 404],
  ['/ADMIN', 404],
  ['/metrics', 200],
  ['/METRICS', 404],
  ['/metrics/', 200],
  ['/elsewhere', 404],
  ['/healthz/x', 404],
];

describe('admin paths, however they are spelled', () => {
  it.each(SPELLINGS)('GET %s without a token is 401 JSON; with the token %i', async (path, withToken) => {
    const anonymous = await send({ path });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ error: 'Unauthorized', message: 'Missing or invalid admin token' });
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await send({ path, headers: { authorization: 'Bearer not-the-admin-token-at-all' } });
    expect(wrong.status).toBe(401);
    expect((await send({ path, token: true })).status).toBe(withToken);
  });

  it('lets nobody create a key without the token, whatever the spelling', async () => {
    const before = await keyCount();
    for (const path of ['/ADMIN/keys', '/Admin/keys', '/%61dmin/keys', '//admin/keys', '/admin/./keys', '/admin/keys/', '/dashboard/../admin/keys', '/DASHBOARD/../ADMIN/keys']) {
      const created = await send({ method: 'POST', path, body: JSON.stringify({ name: `sneaky ${path}`, type: 'live' }) });
      expect(created.status, path).toBe(401);
    }
    expect(await keyCount()).toBe(before);
    // The same spelling with the token is routed the way the check saw it.
    const created = await send({ method: 'POST', path: '/%61dmin//keys/', token: true, body: JSON.stringify({ name: 'Spelled oddly', type: 'test' }) });
    expect(created.status).toBe(201);
    expect(await keyCount()).toBe(before + 1);
    expect((await send({ method: 'POST', path: '/ADMIN/keys', token: true, body: JSON.stringify({ name: 'Upper case', type: 'test' }) })).status).toBe(404);
    expect(await keyCount()).toBe(before + 1);
  });

  it('answers a request target in absolute form like its path', async () => {
    const port = new URL(service.adminUrl).port;
    expect((await send({ path: `http://127.0.0.1:${port}/ADMIN/keys` })).status).toBe(401);
    expect((await send({ path: `http://127.0.0.1:${port}/admin/keys` })).status).toBe(401);
    expect((await send({ path: `http://127.0.0.1:${port}/admin/./keys`, token: true })).status).toBe(200);
  });

  it('refuses malformed percent-encoding with 400 JSON, token or not', async () => {
    for (const path of ['/admin/%zz', '/admin/keys%', '/%E0%A4%A', '/admin/%FF', '/dashboard/%C0%AF']) {
      for (const token of [false, true]) {
        const response = await send({ path, token });
        expect(response.status, path).toBe(400);
        expect(response.json).toEqual({ error: 'Bad Request', message: expect.stringContaining('percent-encoding') });
      }
    }
  });

  it('keeps the public paths public and nothing else', async () => {
    expect((await send({ path: '/healthz' })).status).toBe(200);
    expect((await send({ path: '/readyz' })).status).toBe(200);
    expect((await send({ method: 'HEAD', path: '/healthz' })).status).toBe(200);
    expect((await send({ path: '/HEALTHZ' })).status).toBe(401);
    expect((await send({ method: 'POST', path: '/healthz' })).status).toBe(401);
    expect((await send({ path: '/dashboard/sign-in' })).status).toBe(200);
    expect((await send({ path: '/dashboard//sign-in' })).status).toBe(200);
    expect((await send({ path: '/dashboard/favicon.svg' })).status).toBe(200);
    const home = await send({ path: '/' });
    expect(home.status).toBe(303);
    expect(home.headers.location).toBe('/dashboard/keys');
  });

  it('sends signed-out browsers from every other dashboard page to the sign-in page', async () => {
    for (const path of ['/dashboard/keys', '/dashboard//keys', '/dashboard/./usage', '/dashboard/plan/', '/dashboard/collections', '/dashboard/no-such-page', '/dashboard/keys/some-id/delete']) {
      const response = await send({ path });
      expect(response.status, path).toBe(303);
      expect(response.headers.location).toBe('/dashboard/sign-in');
      expect(response.text).not.toContain('API keys');
    }
    // A bearer token is not a dashboard session.
    expect((await send({ path: '/dashboard/keys', token: true })).status).toBe(303);
  });

  it('keeps the Origin check on dashboard posts without a session', async () => {
    const before = await keyCount();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const foreign = await send({ method: 'POST', path: '/dashboard/keys', headers: { ...form, origin: 'http://evil.example' }, body: 'name=x&type=live' });
    expect(foreign.status).toBe(403);
    const sameOrigin = await send({ method: 'POST', path: '/dashboard//keys', headers: { ...form, origin: service.adminUrl }, body: 'name=x&type=live' });
    expect(sameOrigin.status).toBe(303);
    expect(sameOrigin.headers.location).toBe('/dashboard/sign-in');
    expect(await keyCount()).toBe(before);
  });
});

// Random spellings of protected routes: each segment in random case, some characters
// percent-encoded, extra slashes, `.` and `x/..` segments, a trailing slash.
const ROUTES = ['/admin/keys', '/admin/collections', '/admin/plan', '/admin/usage', '/metrics'];

const segmentSpelling = (segment: string) =>
  fc
    .array(fc.tuple(fc.constantFrom('keep', 'upper', 'encode', 'encodeLower'), fc.boolean()), { minLength: segment.length, maxLength: segment.length })
    .map((choices) => {
      let changedCase = false;
      const text = [...segment]
        .map((char, index) => {
          const [how] = choices[index] ?? ['keep'];
          if (how === 'upper' && char.toUpperCase() !== char) {
            changedCase = true;
            return char.toUpperCase();
          }
          const hex = char.charCodeAt(0).toString(16);
          if (how === 'encode') return `%${hex.toUpperCase()}`;
          if (how === 'encodeLower') return `%${hex}`;
          return char;
        })
        .join('');
      return { text, changedCase };
    });

const noise = fc.constantFrom('', '', '/', './', 'x/../', '%2e/', 'dashboard/../');

const spelling = fc
  .constantFrom(...ROUTES)
  .chain((route) => {
    const segments = route.split('/').filter((segment) => segment !== '');
    return fc.tuple(fc.constant(route), fc.tuple(...segments.map((segment) => fc.tuple(noise, segmentSpelling(segment)))), fc.constantFrom('', '/', '//'));
  })
  .map(([route, parts, trailing]) => ({
    route,
    path: `/${parts.map(([before, { text }]) => `${before}${text}`).join('/')}${trailing}`,
    changedCase: parts.some(([, { changedCase }]) => changedCase),
  }));

describe('property: no spelling of a protected route answers 2xx without credentials', () => {
  it('is 401 without the token, and routed like its canonical form with it', async () => {
    await fc.assert(
      fc.asyncProperty(spelling, fc.constantFrom('GET', 'POST', 'DELETE'), async ({ route, path, changedCase }, method) => {
        const body = method === 'POST' ? JSON.stringify({ name: 'property', type: 'live' }) : undefined;
        const anonymous = await send({ method, path, body });
        expect(anonymous.status, `${method} ${path}`).toBe(401);
        if (method !== 'GET') return;
        const authorised = await send({ method, path, token: true });
        const canonical = await send({ method, path: route, token: true });
        expect(authorised.status, `${method} ${path}`).toBe(changedCase ? 404 : canonical.status);
      }),
      { numRuns: 150 },
    );
    const names = ((await send({ path: '/admin/keys', token: true })).json as { data: { name: string }[] }).data.map((key) => key.name);
    expect(names).not.toContain('property');
  });
});
