import { describe, expect, it } from 'vitest';
import { usageWindows } from './usageRoutes.js';

describe('usageWindows', () => {
  it('covers 24 hourly and 30 daily buckets for the chosen key, and 12 calendar months for every key', () => {
    const to = new Date('2026-03-15T10:30:00.000Z');
    const windows = usageWindows(to, 'k1');
    expect(windows.hourly).toEqual({ granularity: 'hour', from: new Date('2026-03-14T11:30:00.000Z'), to, keyId: 'k1' });
    expect(windows.daily).toEqual({ granularity: 'day', from: new Date('2026-02-14T10:30:00.000Z'), to, keyId: 'k1' });
    expect(windows.monthly).toEqual({ granularity: 'month', from: new Date('2025-04-01T00:00:00.000Z'), to });
  });
});
