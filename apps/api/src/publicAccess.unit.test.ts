import { describe, expect, it } from 'vitest';
import { apiKeyOf } from './publicAccess.js';

const request = (headers: Record<string, string>, query: Record<string, string | string[]>) => ({
  get: (name: string) => headers[name.toLowerCase()] ?? '',
  query,
});

describe('apiKeyOf', () => {
  it('reads X-API-Key for the read routes, never the query', () => {
    expect(apiKeyOf(request({ 'x-api-key': 'pk_test_a' }, { apiKey: 'pk_test_b' }), 'header')).toBe('pk_test_a');
    expect(apiKeyOf(request({}, { apiKey: 'pk_test_b' }), 'header')).toBeUndefined();
  });

  it('reads the first apiKey query parameter for /subscribe, never the header', () => {
    expect(apiKeyOf(request({ 'x-api-key': 'pk_test_a' }, { apiKey: 'pk_test_b' }), 'query')).toBe('pk_test_b');
    expect(apiKeyOf(request({}, { apiKey: ['pk_test_c', 'pk_test_d'] }), 'query')).toBe('pk_test_c');
    expect(apiKeyOf(request({ 'x-api-key': 'pk_test_a' }, {}), 'query')).toBeUndefined();
  });
});
