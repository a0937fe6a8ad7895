import { describe, expect, it } from 'vitest';
import { clientAddress, createConnectionCounter } from './connectionLimit.js';

describe('createConnectionCounter', () => {
  it('admits up to the cap per address, and again after a release', () => {
    const counter = createConnectionCounter(2);
    expect([counter.admit('a'), counter.admit('a'), counter.admit('a')]).toEqual([true, true, false]);
    expect(counter.admit('b')).toBe(true);
    counter.release('a');
    expect(counter.admit('a')).toBe(true);
    expect(counter.count('a')).toBe(2);
    counter.release('b');
    expect(counter.count('b')).toBe(0);
  });

  it('admits everything when the cap is 0', () => {
    const counter = createConnectionCounter(0);
    for (let i = 0; i < 1_000; i++) expect(counter.admit('a')).toBe(true);
  });
});

describe('clientAddress', () => {
  it('counts IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    expect(clientAddress({ remoteAddress: '::ffff:10.0.0.1' })).toBe('10.0.0.1');
    expect(clientAddress({ remoteAddress: '2001:db8::1' })).toBe('2001:db8::1');
    expect(clientAddress({ remoteAddress: undefined })).toBe('unknown');
  });
});
