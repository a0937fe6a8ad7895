import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '@pubstream/read-model';
import { generateApiKey, hashApiKey } from './apiKeys.js';
import { authorizeKey, type AccessDeps } from './authorizeKey.js';

const liveKey = generateApiKey('live');
const testKey = generateApiKey('test');
const record = (key: string, type: 'live' | 'test', allowedDomains: string[]): KeyRecord => ({
  keyId: `k-${type}`,
  keyHash: hashApiKey(key),
  name: type,
  type,
  last4: key.slice(-4),
  allowedDomains,
  rateLimit: 100,
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 0,
});
const records = new Map([
  [hashApiKey(liveKey), record(liveKey, 'live', ['example.com', '*.example.com'])],
  [hashApiKey(testKey), record(testKey, 'test', ['example.com'])],
]);
const deps = (overrides: Partial<AccessDeps> = {}): AccessDeps => ({
  getKey: async (hash) => records.get(hash) ?? null,
  acceptTestKeys: true,
  requireBrowserOrigin: false,
  ...overrides,
});

const rejects = async (promise: Promise<unknown>, status: number, message: string) => {
  await expect(promise).rejects.toMatchObject({ status, message });
};

describe('authorizeKey', () => {
  it('401 Invalid API key for missing, malformed and unknown keys', async () => {
    await rejects(authorizeKey({ apiKey: undefined }, deps()), 401, 'Invalid API key');
    await rejects(authorizeKey({ apiKey: 'pk_live_short' }, deps()), 401, 'Invalid API key');
    await rejects(authorizeKey({ apiKey: `${liveKey} ` }, deps()), 401, 'Invalid API key');
    await rejects(authorizeKey({ apiKey: generateApiKey('live') }, deps()), 401, 'Invalid API key');
  });
  it('a deleted key (no longer in the read model) is 401', async () => {
    await rejects(authorizeKey({ apiKey: liveKey }, deps({ getKey: async () => null })), 401, 'Invalid API key');
  });
  it('test keys are 401 when the deployment refuses them, without a lookup', async () => {
    let lookups = 0;
    const refuse = deps({ acceptTestKeys: false, getKey: async () => (lookups++, null) });
    await rejects(authorizeKey({ apiKey: testKey }, refuse), 401, 'Invalid API key');
    expect(lookups).toBe(0);
  });
  it('no Origin and no Referer: allowed for both types (server-side use)', async () => {
    await expect(authorizeKey({ apiKey: liveKey }, deps())).resolves.toMatchObject({ corsOrigin: null, key: { type: 'live' } });
    await expect(authorizeKey({ apiKey: testKey }, deps())).resolves.toMatchObject({ corsOrigin: null });
  });
  it('REQUIRE_BROWSER_ORIGIN: live keys need a domain, test keys do not', async () => {
    await rejects(authorizeKey({ apiKey: liveKey }, deps({ requireBrowserOrigin: true })), 403, 'Domain not allowed for this API key');
    await expect(authorizeKey({ apiKey: testKey }, deps({ requireBrowserOrigin: true }))).resolves.toBeTruthy();
  });
  it('a whitelisted Origin is allowed and echoed for CORS', async () => {
    await expect(authorizeKey({ apiKey: liveKey, origin: 'https://shop.example.com' }, deps())).resolves.toMatchObject({
      corsOrigin: 'https://shop.example.com',
    });
  });
  it('a domain from Referer is checked but not echoed', async () => {
    await expect(authorizeKey({ apiKey: liveKey, referer: 'https://example.com/page' }, deps())).resolves.toMatchObject({ corsOrigin: null });
    await rejects(authorizeKey({ apiKey: liveKey, referer: 'https://evil.com/page' }, deps()), 403, 'Domain not allowed for this API key');
  });
  it('403 for other domains, Origin: null and unparsable origins', async () => {
    await rejects(authorizeKey({ apiKey: liveKey, origin: 'https://evilexample.com' }, deps()), 403, 'Domain not allowed for this API key');
    await rejects(authorizeKey({ apiKey: liveKey, origin: 'null' }, deps()), 403, 'Domain not allowed for this API key');
    await rejects(authorizeKey({ apiKey: liveKey, origin: '::garbage::' }, deps()), 403, 'Domain not allowed for this API key');
    await rejects(authorizeKey({ apiKey: liveKey, origin: 'http://localhost:3000' }, deps()), 403, 'Domain not allowed for this API key');
  });
  it('test keys also work from localhost, 127.0.0.1 and *.local', async () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://app.local']) {
      await expect(authorizeKey({ apiKey: testKey, origin }, deps())).resolves.toMatchObject({ corsOrigin: origin });
    }
  });
  it('401 takes precedence over 403', async () => {
    await rejects(authorizeKey({ apiKey: generateApiKey('live'), origin: 'https://evil.com' }, deps()), 401, 'Invalid API key');
  });
});
