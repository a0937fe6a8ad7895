import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDomainAllowed, matchesDomainPattern } from './domainWhitelist.js';
import { normalizeHost } from './hostName.js';

const allowed = (host: string, patterns: string[], type: 'live' | 'test' = 'live'): boolean => {
  const normalized = normalizeHost(host);
  return normalized !== null && isDomainAllowed(normalized, patterns, type);
};

describe('normalizeHost', () => {
  it('lower-cases, strips the port and the trailing dot', () => {
    expect(normalizeHost('WWW.Example.COM:8443')).toBe('www.example.com');
    expect(normalizeHost('example.com.')).toBe('example.com');
    expect(normalizeHost('example.com.:80')).toBe('example.com');
  });
  it('converts IDNs to punycode', () => {
    expect(normalizeHost('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHost('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });
  it('keeps IPv6 literals and rejects garbage', () => {
    expect(normalizeHost('[::1]:3000')).toBe('[::1]');
    expect(normalizeHost('')).toBeNull();
    expect(normalizeHost('exa mple.com')).toBeNull();
    expect(normalizeHost('a..b')).toBeNull();
    expect(normalizeHost('example.com:port')).toBeNull();
  });
});

describe('matchesDomainPattern', () => {
  it('exact entries match only that host', () => {
    expect(matchesDomainPattern('example.com', 'example.com')).toBe(true);
    expect(matchesDomainPattern('example.com', 'www.example.com')).toBe(false);
    expect(matchesDomainPattern('www.example.com', 'example.com')).toBe(false);
  });
  it('*.example.com matches subdomains at any depth, never the apex, never evilexample.com', () => {
    expect(matchesDomainPattern('*.example.com', 'www.example.com')).toBe(true);
    expect(matchesDomainPattern('*.example.com', 'a.b.c.example.com')).toBe(true);
    expect(matchesDomainPattern('*.example.com', 'example.com')).toBe(false);
    expect(matchesDomainPattern('*.example.com', 'evilexample.com')).toBe(false);
    expect(matchesDomainPattern('*.example.com', 'www.evilexample.com')).toBe(false);
    expect(matchesDomainPattern('*.example.com', 'example.com.evil.net')).toBe(false);
    expect(matchesDomainPattern('*.example.com', '.example.com')).toBe(false);
  });
  it('normalizes entries: case, port, trailing dot, IDN', () => {
    expect(matchesDomainPattern('*.EXAMPLE.com', 'app.example.com')).toBe(true);
    expect(matchesDomainPattern('Example.com:443', 'example.com')).toBe(true);
    expect(matchesDomainPattern('example.com.', 'example.com')).toBe(true);
    expect(matchesDomainPattern('*.bücher.example', 'shop.xn--bcher-kva.example')).toBe(true);
    expect(matchesDomainPattern('bücher.example', 'xn--bcher-kva.example')).toBe(true);
  });
});

describe('isDomainAllowed', () => {
  it('applies to hosts as browsers send them: upper case, ports, IDN', () => {
    expect(allowed('WWW.EXAMPLE.COM:8080', ['*.example.com'])).toBe(true);
    expect(allowed('Shop.Bücher.Example', ['*.bücher.example'])).toBe(true);
    expect(allowed('evilexample.com', ['*.example.com', 'example.org'])).toBe(false);
  });
  it('live keys: the whitelist alone', () => {
    expect(allowed('localhost', [])).toBe(false);
    expect(allowed('127.0.0.1', ['example.com'])).toBe(false);
    expect(allowed('dev.local', ['example.com'])).toBe(false);
  });
  it('test keys: also localhost, 127.0.0.1 and *.local', () => {
    expect(allowed('localhost:3000', [], 'test')).toBe(true);
    expect(allowed('127.0.0.1:5173', [], 'test')).toBe(true);
    expect(allowed('my-app.local', [], 'test')).toBe(true);
    expect(allowed('a.b.local', [], 'test')).toBe(true);
    expect(allowed('local', [], 'test')).toBe(false);
    expect(allowed('notlocal', [], 'test')).toBe(false);
    expect(allowed('evil.com', ['example.com'], 'test')).toBe(false);
  });
});

// Labels start with a letter: an all-numeric last label would make the host an IPv4 address.
const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.includes('--')); // no xn-- labels
const domain = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.'));

describe('wildcard matching properties', () => {
  it('any subdomain of the base matches, at any depth and in any case, with or without a port', () => {
    fc.assert(
      fc.property(domain, fc.array(label, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 1, max: 65535 }), (base, subs, upper, port) => {
        const host = `${subs.join('.')}.${base}`;
        const sent = (upper ? host.toUpperCase() : host) + `:${port}`;
        expect(allowed(sent, [`*.${base}`])).toBe(true);
      }),
    );
  });
  it('never the apex, and never a host that merely ends with the base text', () => {
    fc.assert(
      fc.property(domain, label, (base, prefix) => {
        expect(allowed(base, [`*.${base}`])).toBe(false);
        expect(allowed(`${prefix}${base}`, [`*.${base}`])).toBe(false);
      }),
    );
  });
  it('a match is always the base itself preceded by a dot (the pattern is a suffix rule on labels)', () => {
    fc.assert(
      fc.property(domain, domain, (base, host) => {
        const matched = matchesDomainPattern(`*.${base}`, host);
        expect(matched).toBe(host.endsWith(`.${base}`));
      }),
    );
  });
  it('exact entries match exactly one host, case-insensitively', () => {
    fc.assert(
      fc.property(domain, domain, (entry, host) => {
        expect(allowed(host.toUpperCase(), [entry])).toBe(entry === host);
      }),
    );
  });
});
