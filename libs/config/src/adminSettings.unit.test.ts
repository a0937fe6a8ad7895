import { describe, expect, it } from 'vitest';
import { adminUrlOf, checkAdminSettings, checkHttpTimeouts } from './adminSettings.js';
import { envSchema } from './envSchema.js';

const env = (values: Record<string, string> = {}) => envSchema.parse(values);

describe('adminUrlOf', () => {
  it('given a wildcard bind, then loopback; an IPv6 host in brackets; ADMIN_URL without its trailing slash', () => {
    expect(adminUrlOf(env({ ADMIN_HOST: '0.0.0.0' }))).toBe('http://127.0.0.1:8081');
    expect(adminUrlOf(env({ ADMIN_HOST: '::' }))).toBe('http://127.0.0.1:8081');
    expect(adminUrlOf(env({ ADMIN_HOST: '::1', ADMIN_PORT: '9000' }))).toBe('http://[::1]:9000');
    expect(adminUrlOf(env({ ADMIN_URL: 'https://admin.example.com//' }))).toBe('https://admin.example.com');
  });
});

describe('checkAdminSettings', () => {
  it('requires a token in production only for roles that serve the admin API', () => {
    expect(() => checkAdminSettings(env({ NODE_ENV: 'production' }), 'all-in-one')).toThrow(/ADMIN_TOKEN is required/);
    expect(() => checkAdminSettings(env({ NODE_ENV: 'production' }), 'admin')).toThrow(/ADMIN_TOKEN is required/);
    expect(() => checkAdminSettings(env({ NODE_ENV: 'production' }), 'api')).not.toThrow();
  });

  it('returns the Host allow-list, and refuses an entry that is not a host', () => {
    expect(checkAdminSettings(env({ ADMIN_ALLOWED_HOSTS: 'Admin.Example.com:8081' }), 'admin')).toEqual(['admin.example.com']);
    expect(() => checkAdminSettings(env({ ADMIN_ALLOWED_HOSTS: 'a b' }), 'admin')).toThrow(/ADMIN_ALLOWED_HOSTS .* \(got "a b"\)/);
  });

  it('refuses a maximum block shorter than the first block', () => {
    expect(() => checkAdminSettings(env({ ADMIN_AUTH_BLOCK_MS: '5000', ADMIN_AUTH_MAX_BLOCK_MS: '4999' }), 'admin')).toThrow(/at least ADMIN_AUTH_BLOCK_MS \(5000\)/);
  });
});

describe('checkHttpTimeouts', () => {
  it('refuses a header timeout longer than either whole-request timeout', () => {
    expect(() => checkHttpTimeouts(env({ HTTP_HEADERS_TIMEOUT_MS: '30000' }))).not.toThrow();
    expect(() => checkHttpTimeouts(env({ HTTP_HEADERS_TIMEOUT_MS: '30001' }))).toThrow(/HTTP_HEADERS_TIMEOUT_MS must not exceed/);
    expect(() => checkHttpTimeouts(env({ HTTP_HEADERS_TIMEOUT_MS: '2000', ADMIN_REQUEST_TIMEOUT_MS: '1000' }))).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});
