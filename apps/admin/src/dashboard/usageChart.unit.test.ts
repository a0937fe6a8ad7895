import { describe, expect, it } from 'vitest';
import { niceCeiling, pointsFromBuckets, usageBarChart } from './usageChart.js';

describe('usage chart', () => {
  it('rounds the axis maximum up to 1, 2, 2.5 or 5 × 10ⁿ', () => {
    expect([0, 3, 7, 11, 180, 201, 2_400, 2_600, 9_999].map(niceCeiling)).toEqual([4, 4, 10, 20, 200, 250, 2_500, 5_000, 10_000]);
  });

  it('labels hour and day buckets', () => {
    expect(pointsFromBuckets([{ bucket: '2026-11-23T07', count: 2 }, { bucket: '2026-11-02', count: 0 }])).toEqual([
      { label: '2026-11-23 07:00 UTC', tick: '07:00', count: 2 },
      { label: '2026-11-02 (UTC)', tick: '2 Nov', count: 0 },
    ]);
  });

  it('draws one bar per non-empty period, describes the totals, and lists every value in the table', () => {
    const points = pointsFromBuckets([
      { bucket: '2026-11-21', count: 5 },
      { bucket: '2026-11-22', count: 0 },
      { bucket: '2026-11-23', count: 1_200 },
    ]);
    const markup = usageBarChart({ id: 'c', caption: 'Last <3> days', points, tickEvery: 1 }).value;
    expect(markup.match(/<rect /g)).toHaveLength(2);
    expect(markup).toContain('1,205 requests in total, at most 1,200 in one period');
    expect(markup).toContain('Last &lt;3&gt; days');
    expect(markup.match(/<tr><td>/g)).toHaveLength(3);
    expect(markup).toContain('role="img" aria-labelledby="c-title c-desc"');
  });
});
