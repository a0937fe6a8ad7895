import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamDrain } from './streamDrain.js';

const spreadHints = { spreadOverWindow: (count: number) => Array.from({ length: count }, (_, index) => (index + 1) * 1_000) };

describe('StreamDrain', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('given a shutdown, then every stream ends at once with its own spread wait, and drain returns when the last is gone', async () => {
    const drain = new StreamDrain({ timeoutMs: 5_000, hints: spreadHints });
    const open = new Set(['a', 'b', 'c']);
    const ended: [string, number | undefined][] = [];
    let done = false;
    const draining = drain.drain('shutdown', [...open], (stream, wait) => void ended.push([stream, wait]), () => open.size).then(() => (done = true));
    expect(drain.draining).toBe(true);
    expect(ended).toEqual([
      ['a', 1_000],
      ['b', 2_000],
      ['c', 3_000],
    ]);
    open.clear();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    drain.settled();
    await draining;
    expect(done).toBe(true);
  });

  it('given another reason, then no wait is spread (each stream keeps its reason\'s own hint)', async () => {
    const drain = new StreamDrain({ timeoutMs: 5_000, hints: spreadHints });
    const ended: (number | undefined)[] = [];
    await drain.drain('key_revoked', ['a', 'b'], (_, wait) => void ended.push(wait), () => 0);
    expect(ended).toEqual([undefined, undefined]);
  });

  it('given streams that do not go, then drain gives up after its timeout', async () => {
    const drain = new StreamDrain({ timeoutMs: 5_000, hints: spreadHints });
    let done = false;
    void drain.drain('shutdown', ['stuck'], () => {}, () => 1).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
