import { describe, expect, it } from 'vitest';
import { ValidationError } from '@pubstream/domain';
import { resumePosition } from './resumePosition.js';

describe('resumePosition', () => {
  it('is null without header nor from: a fresh start', () => {
    expect(resumePosition(undefined, undefined)).toBeNull();
    expect(resumePosition('', undefined)).toBeNull();
  });

  it('reads from= and Last-Event-ID; the header wins over the query when both are given', () => {
    expect(resumePosition(undefined, '42')).toBe(42);
    expect(resumePosition('7', undefined)).toBe(7);
    expect(resumePosition('90', '42')).toBe(90);
    expect(resumePosition('0', '42')).toBe(0);
  });

  it.each(['', '-1', '1.5', 'abc', '1e3', ' 12', '0x10', '1234567890123456'])('refuses from=%j with 400 Invalid position', (value) => {
    expect(() => resumePosition(undefined, value)).toThrow(ValidationError);
    expect(() => resumePosition(undefined, value)).toThrow('Invalid position');
  });

  it('refuses a malformed header even when from= is valid, and a malformed from= even when the header is valid', () => {
    expect(() => resumePosition('abc', '1')).toThrow('Invalid position');
    expect(() => resumePosition('1', 'abc')).toThrow('Invalid position');
    expect(() => resumePosition(undefined, ['1', '2'])).toThrow('Invalid position');
  });
});
