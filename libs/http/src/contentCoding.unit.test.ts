import { describe, expect, it } from 'vitest';
import { parseContentEncoding } from './contentCoding.js';

describe('parseContentEncoding', () => {
  it('accepts identity, gzip, x-gzip, deflate and br in any case', () => {
    expect(parseContentEncoding(undefined)).toBe('identity');
    expect(parseContentEncoding('')).toBe('identity');
    expect(parseContentEncoding('Identity')).toBe('identity');
    expect(parseContentEncoding(' GZIP ')).toBe('gzip');
    expect(parseContentEncoding('x-gzip')).toBe('gzip');
    expect(parseContentEncoding('deflate')).toBe('deflate');
    expect(parseContentEncoding('br')).toBe('br');
  });

  it('refuses unknown codings and lists with 415', () => {
    for (const header of ['compress', 'zstd', 'gzip, br', 'gzip;q=1']) {
      expect(() => parseContentEncoding(header)).toThrow(expect.objectContaining({ status: 415, message: 'Unsupported Content-Encoding: use gzip, deflate, br or identity' }));
    }
  });
});
