import { ConcurrencyError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { event, uniqueStream, type ContractContext } from './contractContext.js';

/** Multi-stream appends: every entry is checked on its own. */
export const describeAppendToStreamsContract = ({ store }: ContractContext): void => {
  describe('appendToStreams', () => {
    it('applies the good entries and reports the conflicting one', async () => {
      const [first, conflicting, third] = [uniqueStream(), uniqueStream(), uniqueStream()];
      const outcomes = await store().appendToStreams([
        { streamName: first, events: [event('A'), event('B')], expectedRevision: 'no_stream' },
        { streamName: conflicting, events: [event('X')], expectedRevision: 4 },
        { streamName: third, events: [event('C')], expectedRevision: 'any' },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
      const [firstOutcome, conflictOutcome] = outcomes;
      if (firstOutcome?.ok) expect(firstOutcome.result.nextRevision).toBe(1);
      if (conflictOutcome && !conflictOutcome.ok) {
        expect(conflictOutcome.error).toBeInstanceOf(ConcurrencyError);
        expect((conflictOutcome.error as ConcurrencyError).streamName).toBe(conflicting);
      }
      expect((await store().readStream(first)).map((e) => e.type)).toEqual(['A', 'B']);
      expect(await store().readStream(conflicting)).toEqual([]);
      expect((await store().readStream(third)).map((e) => e.type)).toEqual(['C']);
    });

    it('sees earlier entries of the same batch when checking later ones', async () => {
      const stream = uniqueStream();
      const outcomes = await store().appendToStreams([
        { streamName: stream, events: [event('A')], expectedRevision: 'no_stream' },
        { streamName: stream, events: [event('B')], expectedRevision: 0 },
        { streamName: stream, events: [event('C')], expectedRevision: 0 },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, true, false]);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('an empty batch does nothing', async () => {
      expect(await store().appendToStreams([])).toEqual([]);
    });
  });
};
