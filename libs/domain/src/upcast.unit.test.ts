import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { currentSchemaVersion, splitDomainList, toDomainEvent, upcastData, type UpcasterRegistry } from './upcast.js';

const keyHash = 'a'.repeat(64);
const v2Data = { keyId: 'k1', name: 'Site', type: 'live', keyHash, last4: 'abcd', allowedDomains: ['a.com', '*.b.com'], rateLimit: 100 };

describe('toDomainEvent', () => {
  it('given a version-1 ApiKeyCreated with a comma-separated domains string, then it reads as version 2 with allowedDomains', () => {
    const { allowedDomains: _drop, ...rest } = v2Data;
    const event = toDomainEvent({ type: 'ApiKeyCreated', data: { ...rest, domains: ' a.com,*.b.com , ' }, metadata: { occurredAt: 'x', schemaVersion: 1 } });
    expect(event).toEqual({ type: 'ApiKeyCreated', data: v2Data });
  });

  it('given a version-1 ApiKeyUpdated without schemaVersion metadata, then its domains are upcast too', () => {
    const event = toDomainEvent({ type: 'ApiKeyUpdated', data: { keyId: 'k1', name: 'n', domains: 'x.org', rateLimit: 5 }, metadata: {} });
    expect(event).toEqual({ type: 'ApiKeyUpdated', data: { keyId: 'k1', name: 'n', allowedDomains: ['x.org'], rateLimit: 5 } });
  });

  it('given version-2 data (with or without schemaVersion), then it passes unchanged', () => {
    expect(toDomainEvent({ type: 'ApiKeyCreated', data: v2Data, metadata: { schemaVersion: 2 } })).toEqual({ type: 'ApiKeyCreated', data: v2Data });
    expect(toDomainEvent({ type: 'ApiKeyCreated', data: v2Data })).toEqual({ type: 'ApiKeyCreated', data: v2Data });
  });

  it('given an unknown event type, then it returns null instead of throwing', () => {
    expect(toDomainEvent({ type: 'SomethingNew', data: { x: 1 }, metadata: {} })).toBeNull();
  });

  it('given a known type with invalid data, then it throws a ValidationError naming the field', () => {
    expect(() => toDomainEvent({ type: 'ItemCreated', data: { id: 'not-a-uuid', dataId: 'a', collection: 'c', data: {} } })).toThrow(ValidationError);
    expect(() => toDomainEvent({ type: 'ItemCreated', data: { id: 'not-a-uuid', dataId: 'a', collection: 'c', data: {} } })).toThrow(/id/);
  });

  it('given a version with no upcaster in the chain, then it throws rather than guessing', () => {
    const registry: UpcasterRegistry = { ItemDeleted: { 2: (d) => d } };
    expect(() => upcastData({ type: 'ItemDeleted', data: {}, metadata: { schemaVersion: 1 } }, registry)).toThrow(/schema version 1/);
  });

  it('runs a chain of upcasters in version order', () => {
    const registry: UpcasterRegistry = {
      PlanChanged: { 1: (d) => ({ ...(d as object), monthlyQuota: null }), 2: (d) => ({ ...(d as object), plan: 'pro' }) },
    };
    expect(currentSchemaVersion('PlanChanged', registry)).toBe(3);
    expect(toDomainEvent({ type: 'PlanChanged', data: { plan: 'free' } }, registry)).toEqual({ type: 'PlanChanged', data: { plan: 'pro', monthlyQuota: null } });
    expect(toDomainEvent({ type: 'PlanChanged', data: { plan: 'free', monthlyQuota: 5 }, metadata: { schemaVersion: 3 } }, registry)).toEqual({
      type: 'PlanChanged',
      data: { plan: 'free', monthlyQuota: 5 },
    });
  });
});

describe('splitDomainList', () => {
  it('trims entries and drops empty ones', () => {
    expect(splitDomainList('a.com, ,b.com,')).toEqual(['a.com', 'b.com']);
    expect(splitDomainList('')).toEqual([]);
  });
});

describe('currentSchemaVersion', () => {
  it('is 2 for api key events (one schema change) and 1 for the rest', () => {
    expect(currentSchemaVersion('ApiKeyCreated')).toBe(2);
    expect(currentSchemaVersion('ItemCreated')).toBe(1);
  });
});
