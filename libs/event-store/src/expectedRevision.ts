import { ConcurrencyError } from '@pubstream/domain';
import type { ExpectedRevision } from './eventStore.js';

/** How a stream's current revision is written in conflict errors: -1 means there is no stream. */
const describeRevision = (revision: number): string => (revision < 0 ? 'no_stream' : String(revision));

/**
 * Throws the port's ConcurrencyError when `current` (the stream's last revision, -1 when it has
 * no events) does not satisfy `expected`. Pure, shared by adapters that check revisions themselves.
 */
export const assertExpectedRevision = (streamName: string, expected: ExpectedRevision, current: number): void => {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current < 0) ||
    (expected === 'stream_exists' && current >= 0) ||
    (typeof expected === 'number' && expected === current);
  if (!ok) throw new ConcurrencyError(streamName, String(expected), describeRevision(current));
};
