import { describe, expect, it } from 'vitest';
import { loadConfig } from '@pubstream/config';
import { adminAppConfig } from './adminApi.js';

describe('adminAppConfig', () => {
  it('passes the token, the read-your-writes wait, the Host allow-list, the guessing throttle, the access-log switch and the readiness bound from the configuration', () => {
    const config = loadConfig(
      { ADMIN_ALLOWED_HOSTS: 'admin.example.com', READ_YOUR_WRITES_TIMEOUT_MS: '1234', ADMIN_AUTH_MAX_FAILURES: '7', ADMIN_AUTH_BLOCK_MS: '1000', ADMIN_AUTH_MAX_BLOCK_MS: '8000', REDIS_COMMAND_TIMEOUT_MS: '700' },
      'all-in-one',
      '/srv',
    );
    expect(adminAppConfig(config, 'token-0123456789abcdef')).toEqual({
      adminToken: 'token-0123456789abcdef',
      readYourWritesTimeoutMs: 1234,
      allowedHosts: ['admin.example.com'],
      authThrottle: { maxFailures: 7, blockMs: 1000, maxBlockMs: 8000 },
      accessLog: false,
      readinessTimeoutMs: 700,
    });
  });
});
