import { describe, expect, it } from 'vitest';
import { createRebuildMeter } from './rebuildMeter.js';
import type { RebuildProgress } from './rebuildProgress.js';

function clock(startMs: number) {
  let t = startMs;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('createRebuildMeter', () => {
  it('gives events/s and the time left to the head from what this run did', () => {
    const time = clock(1_000_000);
    const meter = createRebuildMeter({ resumedFrom: 100, head: 1_100, now: time.now });
    time.advance(2_000);
    meter.position = 500;
    meter.events = 300;
    expect(meter.snapshot()).toEqual({ from: 100, position: 500, head: 1_100, events: 300, eventsPerSecond: 150, etaSeconds: 3 });
  });

  it('has no time left to offer before any progress', () => {
    const meter = createRebuildMeter({ resumedFrom: 0, head: 10, now: clock(0).now });
    expect(meter.snapshot().etaSeconds).toBeNull();
  });

  it('reports at most once per interval unless forced, and not at all without a reporter', () => {
    const time = clock(1_000_000);
    const updates: RebuildProgress[] = [];
    const meter = createRebuildMeter({ resumedFrom: 0, head: 10, now: time.now, everyMs: 500, progress: { update: (p) => updates.push(p), done: () => {} } });
    meter.report(true);
    meter.report();
    time.advance(499);
    meter.report();
    time.advance(1);
    meter.report();
    meter.report(true);
    expect(updates).toHaveLength(3);
    expect(() => createRebuildMeter({ resumedFrom: 0, head: 1, now: time.now }).report(true)).not.toThrow();
  });
});
