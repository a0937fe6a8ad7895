import { describe, expect, it } from 'vitest';
import { adminAccessFor } from './adminGate.js';
import { isPublicDashboardRequest } from './dashboard/dashboardPaths.js';

describe('adminAccessFor (default deny)', () => {
  it.each([
    ['GET', '/healthz', 'public'],
    ['HEAD', '/readyz', 'public'],
    ['POST', '/healthz', 'token'],
    ['GET', '/HEALTHZ', 'token'],
    ['GET', '/', 'dashboard'],
    ['GET', '/dashboard', 'dashboard'],
    ['POST', '/dashboard/keys', 'dashboard'],
    ['GET', '/DASHBOARD/keys', 'token'],
    ['GET', '/dashboards', 'token'],
    ['GET', '/admin/keys', 'token'],
    ['GET', '/ADMIN/keys', 'token'],
    ['GET', '/metrics', 'token'],
    ['GET', '/anything-added-later', 'token'],
    ['OPTIONS', '/healthz', 'token'],
    ['GET', '/openapi.json', 'public'],
    ['GET', '/docs', 'public'],
    ['HEAD', '/docs/redoc.standalone.js', 'public'],
    ['POST', '/openapi.json', 'token'],
    ['GET', '/docs/other', 'token'],
  ] as const)('%s %s needs %s', (method, path, access) => {
    expect(adminAccessFor(method, path)).toBe(access);
  });
});

describe('isPublicDashboardRequest', () => {
  it('opens only the redirects, the sign-in form and the icon', () => {
    expect(isPublicDashboardRequest('GET', '/dashboard/sign-in')).toBe(true);
    expect(isPublicDashboardRequest('POST', '/dashboard/sign-in')).toBe(true);
    expect(isPublicDashboardRequest('HEAD', '/dashboard/favicon.svg')).toBe(true);
    expect(isPublicDashboardRequest('GET', '/')).toBe(true);
    expect(isPublicDashboardRequest('POST', '/dashboard/sign-out')).toBe(false);
    expect(isPublicDashboardRequest('GET', '/dashboard/keys')).toBe(false);
    expect(isPublicDashboardRequest('GET', '/dashboard/a-page-added-later')).toBe(false);
    expect(isPublicDashboardRequest('DELETE', '/dashboard/sign-in')).toBe(false);
  });
});
