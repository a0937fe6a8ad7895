import { describe, expect, it } from 'vitest';
import { seriesValue } from './projectorScrape.js';

describe('seriesValue', () => {
  it('finds a series by name and a subset of its labels', () => {
    const text = ['# HELP x', 'pubstream_projector_active{app="projector"} 1', 'pubstream_projector_position{cursor="applied",app="projector"} 42', 'pubstream_projector_position{cursor="published",app="projector"} 40'].join('\n');
    expect(seriesValue(text, 'pubstream_projector_active')).toBe(1);
    expect(seriesValue(text, 'pubstream_projector_position', { cursor: 'published' })).toBe(40);
    expect(seriesValue(text, 'pubstream_projector_lag_seconds')).toBeUndefined();
  });
});
