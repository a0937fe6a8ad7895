import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { watchDataVersion } from './dataVersionWatch.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it('calls onChange once per observed change of the version, and not while it stays the same', () => {
  let version = 7;
  const onChange = vi.fn();
  const watch = watchDataVersion({ readVersion: () => version, onChange, intervalMs: 5 });
  vi.advanceTimersByTime(50);
  expect(onChange).not.toHaveBeenCalled();
  version = 8;
  vi.advanceTimersByTime(5);
  expect(onChange).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(50);
  expect(onChange).toHaveBeenCalledTimes(1);
  version = 9;
  vi.advanceTimersByTime(5);
  expect(onChange).toHaveBeenCalledTimes(2);
  watch.stop();
  version = 10;
  vi.advanceTimersByTime(50);
  expect(onChange).toHaveBeenCalledTimes(2);
});

it('keeps watching after a failed check and reports the failure', () => {
  let fail = true;
  let version = 1;
  const onChange = vi.fn();
  const onError = vi.fn();
  const watch = watchDataVersion({
    readVersion: () => {
      if (fail && version === 2) throw new Error('database is locked');
      return version;
    },
    onChange,
    onError,
    intervalMs: 5,
  });
  version = 2;
  vi.advanceTimersByTime(5);
  expect(onError).toHaveBeenCalledTimes(1);
  fail = false;
  vi.advanceTimersByTime(5);
  expect(onChange).toHaveBeenCalledTimes(1);
  watch.stop();
});

it('checks at the fast interval for activeForMs after a change, then at the idle interval', () => {
  let version = 1;
  let reads = 0;
  const watch = watchDataVersion({
    readVersion: () => {
      reads += 1;
      return version;
    },
    onChange: () => undefined,
    intervalMs: 5,
    idleIntervalMs: 20,
    activeForMs: 100,
  });
  reads = 0;
  vi.advanceTimersByTime(200);
  expect(reads).toBe(10);
  version = 2;
  vi.advanceTimersByTime(20);
  reads = 0;
  vi.advanceTimersByTime(100);
  expect(reads).toBe(20);
  vi.advanceTimersByTime(100);
  reads = 0;
  vi.advanceTimersByTime(200);
  expect(reads).toBe(10);
  watch.stop();
});

it('a nudge checks at once and switches to the fast interval', () => {
  let version = 1;
  const onChange = vi.fn();
  const watch = watchDataVersion({ readVersion: () => version, onChange, intervalMs: 5, idleIntervalMs: 1_000, activeForMs: 100 });
  version = 2;
  watch.nudge();
  expect(onChange).toHaveBeenCalledTimes(1);
  // The commit a file event announced may become visible a moment later: the fast checks catch it.
  version = 3;
  vi.advanceTimersByTime(5);
  expect(onChange).toHaveBeenCalledTimes(2);
  watch.stop();
  watch.nudge();
  version = 4;
  vi.advanceTimersByTime(2_000);
  expect(onChange).toHaveBeenCalledTimes(2);
});
