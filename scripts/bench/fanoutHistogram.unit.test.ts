import { describe, expect, it } from 'vitest';
import { bucketPercentileMs, fanoutBuckets } from './fanoutHistogram.js';

const scrape = (counts: Record<string, number>): string =>
  [
    '# TYPE pubstream_sse_fanout_latency_seconds histogram',
    ...Object.entries(counts).map(([le, n]) => `pubstream_sse_fanout_latency_seconds_bucket{le="${le}",app="api"} ${n}`),
    'pubstream_sse_frames_sent_total{app="api"} 99',
  ].join('\n');

describe('bucketPercentileMs', () => {
  it('gives the bucket bound holding the percentile of what was observed between two scrapes', () => {
    const before = fanoutBuckets(scrape({ '0.01': 5, '0.05': 5, '0.1': 5, '+Inf': 5 }));
    const after = fanoutBuckets(scrape({ '0.01': 55, '0.05': 103, '0.1': 104, '+Inf': 105 }));
    expect(bucketPercentileMs(before, after, 50)).toBe(10);
    expect(bucketPercentileMs(before, after, 98)).toBe(50);
    expect(bucketPercentileMs(before, after, 99)).toBe(100);
    expect(bucketPercentileMs(before, after, 100)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is NaN when nothing was observed or the histogram is missing', () => {
    expect(bucketPercentileMs(fanoutBuckets(scrape({ '+Inf': 3 })), fanoutBuckets(scrape({ '+Inf': 3 })), 99)).toBeNaN();
    expect(bucketPercentileMs(fanoutBuckets(''), fanoutBuckets(''), 99)).toBeNaN();
  });
});
