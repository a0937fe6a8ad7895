import { ValidationError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { normalizeDomainEntry, parseAllowedDomains } from './allowedDomains.js';

describe('normalizeDomainEntry', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  WWW.Example.COM ', 'www.example.com'],
    ['*.Example.org', '*.example.org'],
    ['example.com.', 'example.com'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['*.bücher.example', '*.xn--bcher-kva.example'],
  ])('accepts %j as %j', (entry, normalized) => {
    expect(normalizeDomainEntry(entry)).toBe(normalized);
  });

  it.each([
    ['https://example.com', /without a scheme/],
    ['example.com/path', /host name only/],
    ['example.com:8080', /ports/],
    ['exa*mple.com', /wildcard/],
    ['*example.com', /wildcard/],
    ['*.*.example.com', /wildcard/],
    ['*.com', /at least two labels/],
    ['*.10.0.0.1', /IP address/],
    ['-bad-.example.com', /not a valid host name/],
    ['under_score.example.com', /not a valid host name/],
    ['', /empty/],
  ])('refuses %j, naming the entry', (entry, why) => {
    expect(() => normalizeDomainEntry(entry)).toThrow(ValidationError);
    expect(() => normalizeDomainEntry(entry)).toThrow(why);
  });
});

describe('parseAllowedDomains', () => {
  it('takes a comma-separated string as the dashboard form sends it, dropping blanks and duplicates', () => {
    expect(parseAllowedDomains('example.com, www.example.com,,EXAMPLE.com , *.example.org')).toEqual(['example.com', 'www.example.com', '*.example.org']);
  });
  it('takes an array', () => {
    expect(parseAllowedDomains(['a.example', 'b.example'])).toEqual(['a.example', 'b.example']);
    expect(parseAllowedDomains([])).toEqual([]);
  });
  it('fails on the first bad entry with its text', () => {
    expect(() => parseAllowedDomains('good.example, http://bad.example')).toThrow(/"http:\/\/bad.example"/);
  });
});
