import { describe, expect, it } from 'vitest';
import { CliError } from './cliError.js';
import { positionArgument } from './positionArgument.js';

describe('positionArgument', () => {
  it('given an integer ≥ 0, then that number', () => {
    expect(positionArgument('--from')('0')).toBe(0);
    expect(positionArgument('--from')('12345')).toBe(12_345);
  });

  it('given a negative, fractional, huge or non-numeric value, then a usage error naming the option', () => {
    for (const value of ['-1', '1.5', '1e400', 'abc', String(2 ** 53)]) {
      const parse = () => positionArgument('--to')(value);
      expect(parse).toThrow(CliError);
      expect(parse).toThrow('--to must be a position (an integer ≥ 0)');
    }
  });
});
