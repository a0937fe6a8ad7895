import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedPathError, normalizePath } from './normalizePath.js';

describe('normalizePath', () => {
  it.each([
    ['/admin/keys', '/admin/keys'],
    ['/', '/'],
    ['', '/'],
    ['//admin//keys//', '/admin/keys'],
    ['/admin/./keys', '/admin/keys'],
    ['/admin/x/../keys', '/admin/keys'],
    ['/../../admin/keys', '/admin/keys'],
    ['/dashboard/../admin/keys', '/admin/keys'],
    ['/%61dmin/%6B%65%79%73', '/admin/keys'],
    ['/admin/%2e/keys', '/admin/keys'],
    ['/admin/x/%2E%2E/keys', '/admin/keys'],
    ['/%7e%2d%5F', '/~-_'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normalizePath(raw)).toBe(expected);
  });

  it('keeps case, and keeps reserved and non-ASCII escapes as escapes (upper-case hex)', () => {
    expect(normalizePath('/ADMIN/Keys')).toBe('/ADMIN/Keys');
    expect(normalizePath('/admin%2fkeys')).toBe('/admin%2Fkeys');
    expect(normalizePath('/items/caf%c3%a9')).toBe('/items/caf%C3%A9');
    expect(normalizePath('/items/a%25b')).toBe('/items/a%25b');
    expect(normalizePath('/a%2F..%2Fb')).toBe('/a%2F..%2Fb');
  });

  it.each(['/admin/%zz', '/admin/keys%', '/%4', '/%E0%A4%A', '/%FF', '/%C0%AF'])('refuses %s as malformed', (raw) => {
    expect(() => normalizePath(raw)).toThrow(MalformedPathError);
    expect(() => normalizePath(raw)).toThrow('The request path has malformed percent-encoding');
  });

  it('gives one normal form: idempotent, no empty or dot segments, no escaped unreserved character', () => {
    const segment = fc.oneof(fc.constantFrom('', '.', '..', '%2e', '%2E%2e', 'admin', 'KEYS', '%61', '%2F', '%C3%A9'), fc.string({ unit: fc.constantFrom('a', 'B', '-', '.', '~', '%41', '%7e') }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const normal = normalizePath(`/${segments.join('/')}`);
        expect(normalizePath(normal)).toBe(normal);
        expect(normal.startsWith('/')).toBe(true);
        expect(normal).not.toMatch(/\/\/|\/\.\.?(\/|$)/);
        expect(normal === '/' || !normal.endsWith('/')).toBe(true);
        expect(normal).not.toMatch(/%(4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE]|3[0-9]|2[DE])/i);
      }),
    );
  });
});
