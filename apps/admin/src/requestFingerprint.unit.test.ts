import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './requestFingerprint.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson(JSON.parse('{ "b": 1, "a": { "d": [ 3, { "f": 1, "e": 2 } ], "c": null } }'))).toBe('{"a":{"c":null,"d":[3,{"e":2,"f":1}]},"b":1}');
  });
  it('writes numbers in their shortest form, so 1.0, 1 and 1e0 are the same', () => {
    expect(canonicalJson(JSON.parse('[1.0, 1, 1e0, 0.10, -0, 1e21]'))).toBe('[1,1,1,0.1,0,1e+21]');
  });
  it('keeps strings exact (escapes, unicode) and tells types apart', () => {
    expect(canonicalJson({ s: 'a"\\\n\u00e9😀' })).toBe('{"s":"a\\"\\\\\\né😀"}');
    expect(new Set([canonicalJson('1'), canonicalJson(1), canonicalJson(true), canonicalJson(null), canonicalJson([]), canonicalJson({})]).size).toBe(6);
  });
  it('sorts keys by code unit, and treats a parsed "__proto__" key as data', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"é":3}');
    expect(canonicalJson(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });
  it('refuses absurdly deep values with 400 instead of overflowing the stack', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/nested too deeply/);
  });
});

describe('requestFingerprint', () => {
  const base = { method: 'PUT', route: '/admin/collections/:slug/items/:dataId', params: { slug: 'books', dataId: 'dune' }, body: { data: { title: 'Dune', year: 1965 } } };
  const fingerprint = requestFingerprint(base);

  it('is a SHA-256 in hex, the same for the same request however its body is spelled', () => {
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint({ ...base, method: 'put', body: JSON.parse('{"data":{"year":1965.0,"title":"Dune"}}') })).toBe(fingerprint);
  });
  it('differs when the method, route, a parameter or the body differs', () => {
    const others = [
      { ...base, method: 'DELETE' },
      { ...base, route: '/admin/collections/:slug' },
      { ...base, params: { slug: 'books', dataId: 'emma' } },
      { ...base, body: { data: { title: 'Dune', year: 1966 } } },
      { ...base, body: { data: { title: 'Dune', year: 1965, extra: null } } },
    ];
    expect(new Set([fingerprint, ...others.map(requestFingerprint)]).size).toBe(others.length + 1);
  });
  it('cannot be confused by moving text between parts', () => {
    expect(requestFingerprint({ ...base, params: { slug: 'a', dataId: 'bc' } })).not.toBe(requestFingerprint({ ...base, params: { slug: 'ab', dataId: 'c' } }));
  });
});
