import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProjectorStatus } from '@pubstream/projector';
import { watchCaughtUp } from './caughtUpWatch.js';

const status = (applied: number, head: number): ProjectorStatus => ({
  name: 'projector',
  state: 'running',
  applied,
  published: applied,
  head,
  lagEvents: head - applied,
  lagSeconds: 0,
  eventsPerSecond: 0,
});

describe('watchCaughtUp', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks the store to mark the head once the projector has applied up to it, and keeps asking (a flush removes the marker)', async () => {
    let current = status(3, 10);
    const marks: { projection: string; position: number }[] = [];
    const stop = watchCaughtUp({ status: async () => current }, { markCaughtUp: async (checkpoint) => (marks.push(checkpoint), true) }, { intervalMs: 100 });
    await vi.advanceTimersByTimeAsync(250);
    expect(marks).toEqual([]);
    current = status(10, 10);
    await vi.advanceTimersByTimeAsync(200);
    expect(marks).toEqual([
      { projection: 'projector', position: 10 },
      { projection: 'projector', position: 10 },
    ]);
    await stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(marks).toHaveLength(2);
  });

  it('reports failures and goes on; never runs two ticks at once', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let release: () => void = () => {};
    const stop = watchCaughtUp(
      {
        status: async () => {
          calls++;
          if (calls === 1) throw new Error('event store unreachable');
          await new Promise<void>((resolve) => (release = resolve));
          return status(1, 1);
        },
      },
      { markCaughtUp: async () => true },
      { intervalMs: 100, onError: (error) => errors.push(error) },
    );
    // The first tick runs at once.
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    // The second tick still waits: no third one started meanwhile.
    expect(calls).toBe(2);
    release();
    await stop();
  });
});
