import { describe, expect, it } from 'vitest';
import { HubTally } from './hubStats.js';

describe('HubTally', () => {
  it('counts open and connecting streams, their unsent bytes, ends per reason and the largest buffer, including streams gone', () => {
    const tally = new HubTally();
    tally.countEnd('cycle');
    tally.countEnd('cycle');
    tally.countEnd('slow_consumer');
    tally.keepPeak({ bufferedBytes: 0, peakBufferedBytes: 900 });
    tally.keepPeak(null);
    const stats = tally.stats(
      [{ bufferedBytes: 100, peakBufferedBytes: 300 }, null, { bufferedBytes: 20, peakBufferedBytes: 50 }],
      { pageReads: 4, changeMessages: 9, framesSent: 12 },
    );
    expect(stats).toEqual({
      streams: 2,
      connecting: 1,
      bufferedBytes: 120,
      peakBufferedBytesPerStream: 900,
      ended: { cycle: 2, slow_consumer: 1 },
      pageReads: 4,
      changeMessages: 9,
      framesSent: 12,
    });
    expect(tally.stats([{ bufferedBytes: 0, peakBufferedBytes: 1_000 }], { pageReads: 0, changeMessages: 0, framesSent: 0 }).peakBufferedBytesPerStream).toBe(1_000);
  });
});
