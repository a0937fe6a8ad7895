import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SlidingWindowSpec } from './rateLimiter.js';
import { decideSlidingWindow, type SlidingWindowDecision, type WindowBucket } from './slidingWindow.js';

const MINUTE: SlidingWindowSpec = { windowMs: 60_000, buckets: 60 };
const T0 = Date.parse('2026-11-23T10:17:00.000Z');

/** Requests of one key at the given times (ms), each decided on the buckets the previous left. */
const run = (times: number[], limit: number, spec = MINUTE): SlidingWindowDecision[] => {
  let buckets: readonly WindowBucket[] = [];
  return times.map((time) => {
    const decision = decideSlidingWindow(buckets, time, limit, spec);
    buckets = decision.buckets;
    return decision;
  });
};

describe('sliding window: given requests over time, when each is decided', () => {
  it('a burst of limit + 1: limit admitted, Remaining down to 0, the refusal waits exactly one window', () => {
    const decisions = run([T0 + 300, T0 + 300, T0 + 300, T0 + 300], 3);
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    // Remaining > 0: the whole limit is back when this request leaves the window.
    expect(decisions[0]!.resetMs).toBe(T0 + 60_300);
    // Remaining 0: when the next request is admitted, which is when the burst leaves the window.
    expect(decisions[2]!.resetMs).toBe(T0 + 60_300);
    expect(decisions[3]!.resetMs).toBe(T0 + 60_300);
    expect(run([T0 + 300, T0 + 300, T0 + 300, T0 + 60_299, T0 + 60_300], 3).map((d) => d.allowed)).toEqual([true, true, true, false, true]);
  });

  it('a window boundary of the clock changes nothing: at most `limit` in any minute', () => {
    // Fixed windows admitted 2 × limit here: a burst before 10:18:00 and another just after it.
    const times = [...Array(5).fill(T0 + 59_900), ...Array(5).fill(T0 + 60_100)];
    expect(run(times, 5).filter((d) => d.allowed)).toHaveLength(5);
  });

  it('requests leave the window one by one: a key spreading its requests is never blocked for a whole window', () => {
    // One request every 15 s against 4 per minute: always admitted (each leaves before the 5th comes).
    const times = Array.from({ length: 12 }, (_, i) => T0 + i * 15_000);
    expect(run(times, 4).every((d) => d.allowed)).toBe(true);
  });

  it('worst case: a bucket counts whole until its latest request leaves, so a refusal may come up to one bucket early', () => {
    // Two requests in the same 1 s bucket, 900 ms apart; limit 2.
    const decisions = run([T0, T0 + 900, T0 + 60_100], 2);
    // At T0 + 60.1 s the first request is out of the last minute, but its bucket still counts whole.
    expect(decisions[2]).toMatchObject({ allowed: false, resetMs: T0 + 60_900 });
  });

  it('a clock stepped back does not reopen spent slots', () => {
    const decisions = run([T0 + 10_000, T0 + 10_000, T0 - 50_000], 2);
    expect(decisions[2]).toMatchObject({ allowed: false, at: T0 + 10_000 });
  });

  it('keeps at most buckets + 1 buckets per key, oldest first', () => {
    const times = Array.from({ length: 500 }, (_, i) => T0 + i * 333);
    const last = run(times, 1_000).at(-1)!;
    expect(last.buckets.length).toBeLessThanOrEqual(61);
    expect(last.buckets.map((b) => b.index)).toEqual([...last.buckets.map((b) => b.index)].sort((a, b) => a - b));
  });
});

describe('sliding window: properties over random request times', () => {
  const spec: SlidingWindowSpec = { windowMs: 10_000, buckets: 5 };
  const bucketMs = spec.windowMs / spec.buckets;
  const timelines = fc.record({
    limit: fc.integer({ min: 1, max: 12 }),
    gaps: fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 150 }),
    start: fc.integer({ min: 0, max: 10_000 }),
  });
  const timesOf = (start: number, gaps: number[]) => gaps.reduce<number[]>((acc, gap) => [...acc, (acc.at(-1) ?? T0 + start) + gap], []);

  it('never admits more than `limit` in any span of one window, and refuses only with `limit` admitted in one window plus one bucket', () => {
    fc.assert(
      fc.property(timelines, ({ limit, gaps, start }) => {
        const decisions = run(timesOf(start, gaps), limit, spec);
        const admitted = decisions.filter((d) => d.allowed).map((d) => d.at);
        const within = (from: number, to: number) => admitted.filter((at) => at > from && at <= to).length;
        for (const at of admitted) expect(within(at - spec.windowMs, at)).toBeLessThanOrEqual(limit);
        for (const d of decisions.filter((x) => !x.allowed)) expect(within(d.at - spec.windowMs - bucketMs, d.at)).toBeGreaterThanOrEqual(limit);
      }),
    );
  });

  it('X-RateLimit-Reset is exact: refused until then, admitted from then on; Remaining is what would be admitted now', () => {
    fc.assert(
      fc.property(timelines, ({ limit, gaps, start }) => {
        let buckets: readonly WindowBucket[] = [];
        for (const time of timesOf(start, gaps)) {
          const d = decideSlidingWindow(buckets, time, limit, spec);
          buckets = d.buckets;
          if (d.remaining > 0) {
            expect(d.resetMs).toBe(d.at + spec.windowMs);
          } else {
            expect(decideSlidingWindow(buckets, d.resetMs - 1, limit, spec).allowed).toBe(false);
            expect(decideSlidingWindow(buckets, d.resetMs, limit, spec).allowed).toBe(true);
          }
          // Remaining requests at this very moment are admitted, one more is not.
          let probe = buckets;
          for (let i = 0; i < d.remaining; i++) {
            const next = decideSlidingWindow(probe, d.at, limit, spec);
            expect(next.allowed).toBe(true);
            probe = next.buckets;
          }
          expect(decideSlidingWindow(probe, d.at, limit, spec).allowed).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });
});
