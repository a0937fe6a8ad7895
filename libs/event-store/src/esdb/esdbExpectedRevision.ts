import { ANY, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision, type CurrentRevision } from '@eventstore/db-client';
import type { ExpectedRevision } from '../eventStore.js';

/** The port's expected revision as the client's (`-1` also means "no stream"). */
export const toEsdbExpectedRevision = (expected: ExpectedRevision): AppendExpectedRevision => {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      if (!Number.isSafeInteger(expected) || expected < -1) throw new RangeError(`Invalid expected revision: ${expected}`);
      return expected === -1 ? NO_STREAM : BigInt(expected);
  }
};

/** A revision as the port's ConcurrencyError writes it ('no_stream', 'any', '3', …). */
export const describeEsdbRevision = (revision: AppendExpectedRevision | CurrentRevision): string => String(revision);
