import { CliError } from './cliError.js';

/** A commander parser for an option that takes a log position: an integer ≥ 0, else a usage error. */
export const positionArgument =
  (name: string) =>
  (value: string): number => {
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < 0) throw new CliError(`${name} must be a position (an integer ≥ 0)`, 2);
    return parsed;
  };
