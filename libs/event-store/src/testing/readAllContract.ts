import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../eventStore.js';
import { event, uniqueStream, type ContractContext } from './contractContext.js';
import { collect } from './subscriptionProbe.js';

/** Global order: readAll with after / until / maxCount, and headPosition. */
export const describeReadAllContract = ({ store, options }: ContractContext): void => {
  // One event per append: positions of multi-event appends are an adapter detail (see docs).
  const appendInterleaved = async (count: number): Promise<{ streams: string[]; appended: RecordedEvent[] }> => {
    const streams = [uniqueStream('a'), uniqueStream('b')];
    for (let i = 0; i < count; i += 1) {
      await store().appendToStream(streams[i % 2] ?? '', [event(`E${i}`, { i })], { expectedRevision: 'any' });
    }
    const ours = (await Promise.all(streams.map((s) => store().readStream(s)))).flat();
    return { streams, appended: ours.sort((x, y) => x.position - y.position) };
  };
  const onlyStreams = (streams: string[]) => (e: RecordedEvent) => streams.includes(e.streamName);

  describe('readAll', () => {
    it('returns events of all streams in append order with increasing positions', async () => {
      const head = await store().headPosition();
      const { streams, appended } = await appendInterleaved(6);
      const all = (await collect(store().readAll({ after: head }))).filter(onlyStreams(streams));
      expect(all.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'E5']);
      expect(all.map((e) => e.eventId)).toEqual(appended.map((e) => e.eventId));
      for (let i = 1; i < all.length; i += 1) expect(all[i]?.position).toBeGreaterThan(all[i - 1]?.position ?? 0);
      if (options.contiguousPositions) {
        expect(all.map((e) => e.position)).toEqual(all.map((_, i) => head + 1 + i));
      }
    });

    it('after is exclusive, until is inclusive', async () => {
      const head = await store().headPosition();
      const { streams, appended } = await appendInterleaved(6);
      const [, second, , , fifth] = appended;
      const between = (await collect(store().readAll({ after: second?.position, until: fifth?.position }))).filter(
        onlyStreams(streams),
      );
      expect(between.map((e) => e.type)).toEqual(['E2', 'E3', 'E4']);
      const fromStart = (await collect(store().readAll({ after: head, until: second?.position }))).filter(onlyStreams(streams));
      expect(fromStart.map((e) => e.type)).toEqual(['E0', 'E1']);
    });

    it('maxCount caps the number of events returned, from the same start', async () => {
      const { appended } = await appendInterleaved(5);
      const after = appended[0]?.position ?? 0;
      const everything = await collect(store().readAll({ after }));
      const page = await collect(store().readAll({ after, maxCount: 3 }));
      expect(page.map((e) => e.eventId)).toEqual(everything.slice(0, 3).map((e) => e.eventId));
      expect(page).toHaveLength(3);
    });

    it('reads from position 0 to the end when given no options', async () => {
      const { streams } = await appendInterleaved(3);
      const all = await collect(store().readAll());
      expect(all.filter(onlyStreams(streams)).map((e) => e.type)).toEqual(['E0', 'E1', 'E2']);
      if (options.freshLogPerTest) expect(all).toHaveLength(3);
    });
  });

  describe('headPosition', () => {
    it('is the position of the last event appended', async () => {
      if (options.freshLogPerTest) expect(await store().headPosition()).toBe(0);
      const first = await store().appendToStream(uniqueStream(), [event('A')], { expectedRevision: 'no_stream' });
      const second = await store().appendToStream(uniqueStream(), [event('B')], { expectedRevision: 'no_stream' });
      const head = await store().headPosition();
      expect(second.position).toBeGreaterThan(first.position);
      if (options.freshLogPerTest) expect(head).toBe(second.position);
      else expect(head).toBeGreaterThanOrEqual(second.position);
    });
  });
};
