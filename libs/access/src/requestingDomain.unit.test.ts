import { describe, expect, it } from 'vitest';
import { requestingDomain } from './requestingDomain.js';

describe('requestingDomain', () => {
  it('takes the Origin header first', () => {
    expect(requestingDomain({ origin: 'https://App.Example.com:8443', referer: 'https://other.net/page' })).toEqual({
      kind: 'host',
      host: 'app.example.com',
      origin: 'https://App.Example.com:8443',
    });
  });
  it('falls back to the host of the Referer, with no origin to echo', () => {
    expect(requestingDomain({ referer: 'https://www.example.com/some/page?x=1' })).toEqual({ kind: 'host', host: 'www.example.com', origin: null });
  });
  it('converts IDN origins to punycode', () => {
    expect(requestingDomain({ origin: 'https://bücher.example' })).toMatchObject({ host: 'xn--bcher-kva.example' });
  });
  it('Origin: null and unparsable values are invalid', () => {
    expect(requestingDomain({ origin: 'null' })).toEqual({ kind: 'invalid' });
    expect(requestingDomain({ origin: 'not a url' })).toEqual({ kind: 'invalid' });
    expect(requestingDomain({ origin: '' })).toEqual({ kind: 'invalid' });
    expect(requestingDomain({ referer: '/relative/path' })).toEqual({ kind: 'invalid' });
    expect(requestingDomain({ origin: 'file:///etc/passwd' })).toEqual({ kind: 'invalid' });
  });
  it('neither header: no domain', () => {
    expect(requestingDomain({})).toEqual({ kind: 'none' });
  });
});
