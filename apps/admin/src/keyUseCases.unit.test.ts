import { hashApiKey } from '@pubstream/access';
import { apiKeyDecider, type ProjectState } from '@pubstream/domain';
import type { KeyRecord, KeyUsage } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createKeyUseCases } from './keyUseCases.js';
import { createWriteWorld } from './testing/writeWorld.js';
import type { RequestBinding } from './writeOutcome.js';

const keyRecord = (keyId: string, createdAt: string): KeyRecord => ({
  keyId,
  name: keyId,
  type: 'live',
  keyHash: 'h',
  last4: 'abcd',
  allowedDomains: [],
  rateLimit: 10,
  createdAt,
  version: 0,
});

const setup = (options: { records?: KeyRecord[]; usage?: () => Promise<KeyUsage[]>; plan?: ProjectState } = {}) => {
  const world = createWriteWorld();
  const useCases = createKeyUseCases({
    write: world.write,
    keys: { getKey: async (keyId) => options.records?.find((record) => record.keyId === keyId) ?? null, listKeys: async () => options.records ?? [] },
    usage: { getUsage: options.usage ?? (async () => []) },
    currentPlan: async () => options.plan ?? { plan: 'pro', monthlyQuota: null },
    newId: world.newId,
  });
  return { world, useCases };
};

const binding: RequestBinding<unknown> = { fingerprint: 'f'.repeat(64), method: 'POST', path: '/admin/keys', answer: (result) => ({ status: 201, body: result.value }) };

describe('key use cases', () => {
  it('creates a key shown in full once, storing only its hash, with the plan default rate limit', async () => {
    const { world, useCases } = setup();
    const created = await useCases.createKey({ name: 'Website', type: 'live', allowedDomains: 'Example.com, *.example.org' });
    const key = created.value.key ?? '';
    expect(key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(created.value).toMatchObject({ maskedKey: `pk_live_…${key.slice(-4)}`, allowedDomains: ['example.com', '*.example.org'], rateLimit: 1_000, requestCount: 0 });
    const stored = JSON.stringify(world.log);
    expect(stored).not.toContain(key);
    expect(stored).toContain(hashApiKey(key));
  });

  it('a retried creation shows no key, and the recorded answer never held it', async () => {
    const { world, useCases } = setup();
    const first = await useCases.createKey({ name: 'Website', type: 'test', allowedDomains: [] }, { idempotencyKey: 'k', binding });
    expect(first.value.key).not.toBeNull();
    expect(JSON.stringify(world.log)).not.toContain(first.value.key ?? 'no key');
    const retry = await useCases.createKey({ name: 'Website', type: 'test', allowedDomains: [] }, { idempotencyKey: 'k', binding });
    expect(retry).toMatchObject({ replayed: true, created: true, value: { keyId: first.value.keyId, key: null } });
  });

  it('refuses a rate limit above the plan maximum', async () => {
    const { useCases } = setup({ plan: { plan: 'free', monthlyQuota: null } });
    await expect(useCases.createKey({ name: 'Too fast', type: 'live', allowedDomains: [], rateLimit: 1_000 })).rejects.toMatchObject({ status: 400 });
  });

  it('an update needs the usage counters first: an unreachable read model is 503 and nothing is written', async () => {
    const { world, useCases } = setup({ usage: async () => Promise.reject(new Error('timeout')) });
    const created = await useCases.createKey({ name: 'Website', type: 'live', allowedDomains: [] });
    await expect(useCases.updateKey(created.value.keyId, { name: 'Renamed' })).rejects.toMatchObject({ status: 503 });
    expect(world.log).toHaveLength(1);
    expect(await world.commands.load(apiKeyDecider, `apikey-${created.value.keyId}`)).toMatchObject({ status: 'active', name: 'Website' });
  });

  it('lists keys oldest first with their usage, and reads one; an unknown key is 404', async () => {
    const usage: KeyUsage[] = [{ keyId: 'b', requestCount: 7, lastUsedAt: '2026-01-02T00:00:00.000Z' }];
    const { useCases } = setup({ records: [keyRecord('b', '2025-01-01T00:00:00.000Z'), keyRecord('a', '2025-06-01T00:00:00.000Z')], usage: async () => usage });
    expect((await useCases.listKeys()).map((key) => [key.keyId, key.requestCount, key.maskedKey])).toEqual([
      ['b', 7, 'pk_live_…abcd'],
      ['a', 0, 'pk_live_…abcd'],
    ]);
    expect(await useCases.getKey('b')).toMatchObject({ lastUsedAt: '2026-01-02T00:00:00.000Z' });
    await expect(useCases.getKey('nope')).rejects.toMatchObject({ status: 404, message: 'API key "nope" not found' });
  });
});
