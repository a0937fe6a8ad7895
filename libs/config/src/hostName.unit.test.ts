import { describe, expect, it } from 'vitest';
import { hostName } from './hostName.js';

describe('hostName', () => {
  it.each([
    ['localhost', 'localhost'],
    ['LocalHost:8081', 'localhost'],
    ['127.0.0.1:8081', '127.0.0.1'],
    ['[::1]:8081', '[::1]'],
    ['[::1]', '[::1]'],
    ['::1', '[::1]'],
    ['admin.example.com.', 'admin.example.com'],
    ['pubstream_admin:80', 'pubstream_admin'],
    [' evil.example:8081 ', 'evil.example'],
  ])('reads %j as %j', (value, expected) => {
    expect(hostName(value)).toBe(expected);
  });

  it.each(['', ':8081', 'http://x', 'a b', 'x:port', '[::1', '[::1]x', '[evil]', 'a@b', 'x:1:2:g'])('refuses %j', (value) => {
    expect(hostName(value)).toBeNull();
  });
});
