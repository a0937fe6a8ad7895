import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideMonthlyQuota, monthEndMs, monthOf } from './monthlyQuota.js';

describe('monthly quota', () => {
  it('counts per UTC calendar month and ends at the first instant of the next one', () => {
    const at = Date.parse('2026-11-23T10:17:42.500Z');
    expect(monthEndMs(monthOf(at))).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect(monthEndMs(monthOf(Date.parse('2026-12-31T23:59:59.999Z')))).toBe(Date.parse('2027-01-01T00:00:00Z'));
    expect(monthEndMs(monthOf(Date.parse('2028-02-29T12:00:00Z')))).toBe(Date.parse('2028-03-01T00:00:00Z'));
    expect(monthOf(Date.parse('2027-01-01T00:00:00Z'))).toBe(monthOf(Date.parse('2026-12-31T23:59:59.999Z')) + 1);
  });

  it('given a used-up quota, when the next month starts, then requests are admitted again', () => {
    const end = decideMonthlyQuota({ month: monthOf(Date.parse('2026-11-30T23:59:59Z')), count: 2 }, Date.parse('2026-11-30T23:59:59Z'), 2);
    expect(end).toMatchObject({ allowed: false, remaining: 0, resetMs: Date.parse('2026-12-01T00:00:00Z') });
    expect(decideMonthlyQuota(end.state, Date.parse('2026-12-01T00:00:00Z'), 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('given a clock stepped back into the previous month, the current month keeps counting', () => {
    const december = { month: monthOf(Date.parse('2026-12-01T00:00:01Z')), count: 2 };
    expect(decideMonthlyQuota(december, Date.parse('2026-11-30T23:59:58Z'), 2)).toMatchObject({ allowed: false, state: december });
  });

  it('month arithmetic agrees with Date for any time from 1970 to 2400', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.parse('2400-01-01T00:00:00Z') }), (ms) => {
        const at = new Date(ms);
        expect(monthEndMs(monthOf(ms))).toBe(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
      }),
    );
  });
});
