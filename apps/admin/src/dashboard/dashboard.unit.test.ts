import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '@pubstream/domain';
import type { KeyView, PlanView } from '../adminService.js';
import { koaContext, runMiddleware, type FakeRequest } from '../testing/koaContext.js';
import { createDashboard } from './dashboard.js';
import type { DashboardService } from './dashboardContext.js';

const ORIGIN = 'http://127.0.0.1:8081';
const TOKEN = 'admin-token-123';
const plan: PlanView = { plan: 'pro', monthlyQuota: null, limits: { defaultRateLimit: 1_000, maxRateLimit: 10_000, reactive: false, maxStreamsPerKey: 0 } };
const key: KeyView = { keyId: 'k1', name: 'Website', type: 'live', maskedKey: 'pk_live_…abcd', allowedDomains: [], rateLimit: 10, createdAt: '2026-01-01T00:00:00.000Z', lastUsedAt: null, requestCount: 0 };

/** The dashboard over fake use cases; `request` runs one request, carrying the session cookie once signed in. */
const setup = (options: { listKeys?: () => Promise<KeyView[]>; blockedFor?: number } = {}) => {
  const seen = { failures: 0, errors: [] as unknown[], cookie: '' };
  const service = {
    listKeys: options.listKeys ?? (async () => [key]),
    getKey: async () => key,
    getPlan: async () => plan,
    createKey: async (input: { name: string }) => ({ value: { ...key, name: input.name, key: 'pk_live_FULLKEY' }, created: true, replayed: false, position: 1, visible: true }),
  } as unknown as DashboardService;
  const dashboard = createDashboard({
    service,
    stores: { keys: { listKeys: async () => [] }, usage: { getUsage: async () => [], getUsageSeries: async () => [] } },
    adminToken: TOKEN,
    logger: { warn: () => undefined, error: (object: unknown) => void seen.errors.push(object) },
    now: () => new Date('2026-01-01T00:00:00Z'),
    throttle: { blockedFor: async () => options.blockedFor ?? 0, recordFailure: async () => (seen.failures++, 0) },
  });
  const request = async (fake: FakeRequest) => {
    const ctx = koaContext({ ...fake, headers: { ...(seen.cookie && { cookie: seen.cookie }), ...fake.headers } });
    const passed = await runMiddleware(dashboard, ctx);
    const setCookie = ctx.response.get('Set-Cookie');
    if (setCookie) seen.cookie = String(setCookie).split(';')[0] ?? '';
    return { ctx, passed, body: String(ctx.body ?? '') };
  };
  const signIn = () => request({ method: 'POST', path: '/dashboard/sign-in', headers: { origin: ORIGIN }, form: { token: TOKEN } });
  return { request, signIn, seen };
};

describe('dashboard', () => {
  it('leaves every other path to the admin API', async () => {
    const { request } = setup();
    const other = await request({ path: '/admin/keys' });
    expect([other.passed, other.ctx.body, other.ctx.response.get('Content-Security-Policy')]).toEqual([true, undefined, undefined]);
  });

  it('sends a signed-out browser to sign-in, and refuses a foreign post first', async () => {
    const { request } = setup();
    const page = await request({ path: '/dashboard/keys' });
    expect([page.ctx.status, page.ctx.response.get('Location')]).toEqual([303, '/dashboard/sign-in']);
    expect((await request({ method: 'POST', path: '/dashboard/keys', headers: { origin: 'http://evil.example' } })).ctx.status).toBe(403);
    expect((await request({ path: '/dashboard/sign-in' })).ctx.status).toBe(200);
  });

  it('signs in with the admin token (a fresh HttpOnly cookie), not with another, which counts as a failure', async () => {
    const { request, signIn, seen } = setup();
    const wrong = await request({ method: 'POST', path: '/dashboard/sign-in', headers: { origin: ORIGIN }, form: { token: 'guess' } });
    expect([wrong.ctx.status, wrong.ctx.response.get('Set-Cookie'), seen.failures]).toEqual([401, undefined, 1]);
    const right = await signIn();
    expect([right.ctx.status, right.ctx.response.get('Location')]).toEqual([303, '/dashboard/keys']);
    expect(String(right.ctx.response.get('Set-Cookie'))).toMatch(/^pubstream_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const keys = await request({ path: '/dashboard/keys' });
    expect(keys.ctx.status).toBe(200);
    expect(keys.body).toContain('pk_live_…abcd');
  });

  it('puts the security headers and a fresh nonce on every page', async () => {
    const { request } = setup();
    const first = await request({ path: '/dashboard/sign-in' });
    const second = await request({ path: '/dashboard/sign-in' });
    const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
    const nonce = nonceOf(first.ctx.response.get('Content-Security-Policy'));
    expect(nonce).toBeDefined();
    expect(first.body).toContain(`<style nonce="${nonce}">`);
    expect(nonceOf(second.ctx.response.get('Content-Security-Policy'))).not.toBe(nonce);
    expect(first.ctx.response.get('X-Frame-Options')).toBe('DENY');
    expect(first.ctx.response.get('Referrer-Policy')).toBe('same-origin');
  });

  it('answers a blocked address with the sign-in page and 429, even signed in', async () => {
    const { request } = setup({ blockedFor: 90 });
    const blocked = await request({ path: '/dashboard/keys', headers: { cookie: 'pubstream_session=whatever' } });
    expect([blocked.ctx.status, blocked.ctx.response.get('Retry-After')]).toEqual([429, '90']);
    expect(blocked.body).toContain('Too many failed sign-ins');
  });

  it('shows a new key once, then only masked', async () => {
    const { request, signIn } = setup();
    await signIn();
    const csrf = /name="csrf" value="([^"]+)"/.exec((await request({ path: '/dashboard/keys' })).body)?.[1] ?? '';
    const created = await request({ method: 'POST', path: '/dashboard/keys', headers: { origin: ORIGIN }, form: { csrf, name: 'New', type: 'live', domains: '', rateLimit: '' } });
    expect([created.ctx.status, created.ctx.response.get('Location')]).toEqual([303, '/dashboard/keys#new-key']);
    expect((await request({ path: '/dashboard/keys' })).body).toContain('pk_live_FULLKEY');
    expect((await request({ path: '/dashboard/keys' })).body).not.toContain('pk_live_FULLKEY');
  });

  it('answers an unknown page 404 and a server fault 500 as HTML, logging the fault without showing it', async () => {
    const { request, signIn, seen } = setup({ listKeys: async () => Promise.reject(new TypeError('secret detail')) });
    await signIn();
    const missing = await request({ path: '/dashboard/nope' });
    expect([missing.ctx.status, missing.ctx.type]).toEqual([404, 'text/html']);
    expect(missing.body).toContain('No dashboard page at /dashboard/nope');
    const fault = await request({ path: '/dashboard/keys' });
    expect(fault.ctx.status).toBe(500);
    expect(fault.body).not.toContain('secret detail');
    expect(seen.errors).toHaveLength(1);
  });

  it('shows a backend that cannot answer now as a 503 page with Retry-After, never as an empty list or not found', async () => {
    const { request, signIn, seen } = setup({ listKeys: async () => Promise.reject(new ServiceUnavailableError('The read model is being rebuilt; try again shortly')) });
    await signIn();
    const page = await request({ path: '/dashboard/keys' });
    expect([page.ctx.status, page.ctx.type, page.ctx.response.get('Retry-After')]).toEqual([503, 'text/html', '1']);
    expect(page.body).toContain('The read model is being rebuilt; try again shortly');
    expect(page.body).toContain('href="/dashboard/keys"');
    expect(seen.errors).toHaveLength(0);
  });
});
