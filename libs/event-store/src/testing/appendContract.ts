import { ConcurrencyError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { event, uniqueStream, type ContractContext } from './contractContext.js';

const conflictOf = (promise: Promise<unknown>): Promise<ConcurrencyError> =>
  promise.then(
    () => {
      throw new Error('expected a ConcurrencyError, the append succeeded');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ConcurrencyError);
      return error as ConcurrencyError;
    },
  );

/** Appends, expected revisions, conflicts, idempotency and stream reads. */
export const describeAppendContract = ({ store, options }: ContractContext): void => {
  describe('appendToStream and readStream', () => {
    it('stores events with revisions from 0, their data, metadata and ids, in order', async () => {
      const stream = uniqueStream();
      const first = event('ItemCreated', { n: 1, nested: { list: [1, 'two'] } }, { metadata: { causationId: 'c-1' } });
      const second = event('ItemUpdated', { n: 2 });
      const result = await store().appendToStream(stream, [first, second], { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(1);
      expect(result.position).toBeGreaterThan(0);

      const read = await store().readStream(stream);
      expect(read.map((e) => [e.eventId, e.type, e.revision, e.streamName])).toEqual([
        [first.eventId, 'ItemCreated', 0, stream],
        [second.eventId, 'ItemUpdated', 1, stream],
      ]);
      expect(read[0]?.data).toEqual({ n: 1, nested: { list: [1, 'two'] } });
      expect(read[0]?.metadata).toEqual({ causationId: 'c-1' });
      expect(read[1]?.metadata).toEqual({});
      expect(read[0]?.recordedAt).toBeInstanceOf(Date);
      expect(read[0]?.position).toBeGreaterThan(0);
    });

    it('reads a stream that does not exist as empty', async () => {
      expect(await store().readStream(uniqueStream('missing'))).toEqual([]);
    });

    it('gives an event without an id one, and keeps ids that are not UUIDs', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [{ type: 'A', data: {} }, { eventId: 'import-7:item-a', type: 'B', data: {} }], {
        expectedRevision: 'any',
      });
      const [generated, given] = await store().readStream(stream);
      expect(generated?.eventId).toMatch(/\S/);
      expect(given?.eventId).toBe('import-7:item-a');
    });
  });

  describe('expected revision', () => {
    it('no_stream: succeeds on a new stream, conflicts once it exists', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [event('A')], { expectedRevision: 'no_stream' });
      const error = await conflictOf(store().appendToStream(stream, [event('B')], { expectedRevision: 'no_stream' }));
      expect([error.streamName, error.expected, error.actual]).toEqual([stream, 'no_stream', '0']);
      expect(error.status).toBe(409);
      expect(await store().readStream(stream)).toHaveLength(1);
    });

    it('stream_exists: conflicts on a new stream, succeeds once it exists', async () => {
      const stream = uniqueStream();
      const error = await conflictOf(store().appendToStream(stream, [event('A')], { expectedRevision: 'stream_exists' }));
      expect([error.streamName, error.expected, error.actual]).toEqual([stream, 'stream_exists', 'no_stream']);
      expect(await store().readStream(stream)).toEqual([]);
      await store().appendToStream(stream, [event('A')], { expectedRevision: 'any' });
      const result = await store().appendToStream(stream, [event('B')], { expectedRevision: 'stream_exists' });
      expect(result.nextRevision).toBe(1);
    });

    it('a number: succeeds when it is the last revision, conflicts otherwise and writes nothing', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });
      const stale = await conflictOf(store().appendToStream(stream, [event('C')], { expectedRevision: 0 }));
      expect([stale.streamName, stale.expected, stale.actual]).toEqual([stream, '0', '1']);
      const ahead = await conflictOf(store().appendToStream(stream, [event('C')], { expectedRevision: 5 }));
      expect([ahead.expected, ahead.actual]).toEqual(['5', '1']);
      const missing = await conflictOf(store().appendToStream(uniqueStream(), [event('C')], { expectedRevision: 0 }));
      expect(missing.actual).toBe('no_stream');
      const result = await store().appendToStream(stream, [event('C')], { expectedRevision: 1 });
      expect(result.nextRevision).toBe(2);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    });

    it('any: appends whatever the stream holds', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [event('A')], { expectedRevision: 'any' });
      const result = await store().appendToStream(stream, [event('B')], { expectedRevision: 'any' });
      expect(result.nextRevision).toBe(1);
    });

    it('concurrent appends with the same expected revision: exactly one wins', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, [event('Created')], { expectedRevision: 'no_stream' });
      const attempts = Array.from({ length: 8 }, (_, i) =>
        store().appendToStream(stream, [event('Updated', { attempt: i })], { expectedRevision: 0 }),
      );
      const outcomes = await Promise.allSettled(attempts);
      const winners = outcomes.filter((o) => o.status === 'fulfilled');
      const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(7);
      for (const loser of losers) expect(loser).toBeInstanceOf(ConcurrencyError);
      expect((await store().readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
    });

    it('concurrent creations of one stream: exactly one wins', async () => {
      const stream = uniqueStream();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => store().appendToStream(stream, [event('Created', { i })], { expectedRevision: 'no_stream' })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await store().readStream(stream)).toHaveLength(1);
    });
  });

  describe('idempotent appends', () => {
    it('stores an event id appended twice once, and the retry succeeds', async () => {
      const stream = uniqueStream();
      const created = event('Created');
      const first = await store().appendToStream(stream, [created], { expectedRevision: 'no_stream' });
      const retry = await store().appendToStream(stream, [created], { expectedRevision: 'no_stream' });
      expect(retry.nextRevision).toBe(0);
      const read = await store().readStream(stream);
      expect(read.map((e) => e.eventId)).toEqual([created.eventId]);
      if (options.retryReturnsOriginalPosition) expect(retry.position).toBe(first.position);
    });

    it('a retried batch after the stream moved on writes nothing and does not conflict', async () => {
      const stream = uniqueStream();
      const batch = [event('Created'), event('Updated')];
      await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      await store().appendToStream(stream, [event('Later')], { expectedRevision: 1 });
      await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['Created', 'Updated', 'Later']);
    });

    it('an id retried with expected revision any is stored once', async () => {
      const stream = uniqueStream();
      const once = event('Once');
      await store().appendToStream(stream, [once], { expectedRevision: 'any' });
      await store().appendToStream(stream, [once], { expectedRevision: 'any' });
      expect(await store().readStream(stream)).toHaveLength(1);
    });
  });

};
