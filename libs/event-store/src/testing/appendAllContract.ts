import { ConcurrencyError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { PartialAppendError } from '../partialAppendError.js';
import { event, uniqueStream, type ContractContext } from './contractContext.js';

const failureOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected appendAll to fail, it succeeded');
    },
    (error: unknown) => error,
  );

/** All-or-nothing appends to several streams, where the adapter can (option `atomicAppendAll`). */
export const describeAppendAllContract = ({ store, options }: ContractContext): void => {
  describe('appendAll', () => {
    it('appends every entry in order and returns one result each', async () => {
      const [first, second] = [uniqueStream(), uniqueStream()];
      const results = await store().appendAll([
        { streamName: first, events: [event('A')], expectedRevision: 'no_stream' },
        { streamName: second, events: [event('B'), event('C')], expectedRevision: 'no_stream' },
      ]);
      expect(results.map((result) => result.nextRevision)).toEqual([0, 1]);
      expect(results[1]!.position).toBeGreaterThan(results[0]!.position);
      expect((await store().readStream(second)).map((e) => e.type)).toEqual(['B', 'C']);
    });

    it('a failing first entry writes nothing and throws its error', async () => {
      const [first, second] = [uniqueStream(), uniqueStream()];
      const error = await failureOf(
        store().appendAll([
          { streamName: first, events: [event('A')], expectedRevision: 3 },
          { streamName: second, events: [event('B')], expectedRevision: 'no_stream' },
        ]),
      );
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(await store().readStream(first)).toEqual([]);
      expect(await store().readStream(second)).toEqual([]);
    });

    it(options.atomicAppendAll ? 'a failing later entry rolls the whole batch back' : 'a failing later entry leaves the earlier ones written and says so', async () => {
      const [first, taken] = [uniqueStream(), uniqueStream()];
      await store().appendToStream(taken, [event('X')], { expectedRevision: 'no_stream' });
      const error = await failureOf(
        store().appendAll([
          { streamName: first, events: [event('A')], expectedRevision: 'no_stream' },
          { streamName: taken, events: [event('B')], expectedRevision: 'no_stream' },
        ]),
      );
      expect((await store().readStream(taken)).map((e) => e.type)).toEqual(['X']);
      if (options.atomicAppendAll) {
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(await store().readStream(first)).toEqual([]);
      } else {
        expect(error).toBeInstanceOf(PartialAppendError);
        expect((error as PartialAppendError).written).toHaveLength(1);
        expect((error as PartialAppendError).cause).toBeInstanceOf(ConcurrencyError);
        expect((await store().readStream(first)).map((e) => e.type)).toEqual(['A']);
      }
    });

    it('a retried batch with the same event ids appends nothing new', async () => {
      const [first, second] = [uniqueStream(), uniqueStream()];
      const batch = [
        { streamName: first, events: [event('A')], expectedRevision: 'no_stream' as const },
        { streamName: second, events: [event('B')], expectedRevision: 'no_stream' as const },
      ];
      await store().appendAll(batch);
      await store().appendAll(batch).catch(() => undefined);
      expect((await store().readStream(first)).map((e) => e.type)).toEqual(['A']);
      expect((await store().readStream(second)).map((e) => e.type)).toEqual(['B']);
    });
  });
};
