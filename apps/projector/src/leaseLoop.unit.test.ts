import type { Lease, ProjectionStore } from '@pubstream/read-model';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLease, keepLease, leaseTimings, releaseLease, type LeaseOptions } from './leaseLoop.js';
import { silentLogger } from './projectorLogger.js';

type LeaseStore = Pick<ProjectionStore, 'acquireLease' | 'renewLease' | 'releaseLease'>;
const LEASE: Lease = { name: 'projector', holder: 'a', token: 7 };

const options = (store: Partial<LeaseStore>): LeaseOptions => ({
  store: { acquireLease: async () => null, renewLease: async () => true, releaseLease: async () => {}, ...store },
  name: 'projector',
  holder: 'a',
  ttlMs: 2_000,
  pollMs: 200,
  renewMs: 500,
  now: () => new Date(),
  logger: silentLogger,
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('lease timings', () => {
  it('a standby polls at ttl/10 within 50–250 ms; the holder renews at ttl/4', () => {
    expect(leaseTimings(2_000)).toEqual({ pollMs: 200, renewMs: 500 });
    expect(leaseTimings(3_000)).toEqual({ pollMs: 250, renewMs: 750 });
    expect(leaseTimings(300)).toEqual({ pollMs: 50, renewMs: 75 });
  });
});

describe('acquiring the lease', () => {
  it('polls every pollMs until the lease is free, then returns it', async () => {
    let calls = 0;
    const acquiring = acquireLease(options({ acquireLease: async () => (++calls === 3 ? LEASE : null) }), new AbortController().signal);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(201);
    expect(await acquiring).toEqual(LEASE);
    expect(calls).toBe(3);
  });

  it('keeps polling through read-model errors, and gives up (null) at once when stopped', async () => {
    let calls = 0;
    const stop = new AbortController();
    const acquiring = acquireLease(options({ acquireLease: async () => { calls += 1; throw new Error('ECONNREFUSED'); } }), stop.signal);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(6);
    stop.abort();
    expect(await acquiring).toBeNull();
  });
});

describe('keeping the lease', () => {
  it('renews every renewMs while renewals succeed', async () => {
    const renewLease = vi.fn(async () => true);
    const onLost = vi.fn();
    const stopKeeping = keepLease(options({ renewLease }), LEASE, onLost);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(renewLease).toHaveBeenCalledTimes(4);
    expect(onLost).not.toHaveBeenCalled();
    stopKeeping();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(renewLease).toHaveBeenCalledTimes(4);
  });

  it('is lost at the first renewal that says the lease is gone (taken over or wiped), once', async () => {
    let held = true;
    const onLost = vi.fn();
    keepLease(options({ renewLease: async () => held }), LEASE, onLost);
    await vi.advanceTimersByTimeAsync(1_000);
    held = false;
    await vi.advanceTimersByTimeAsync(500);
    expect(onLost).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(onLost).toHaveBeenCalledTimes(1);
  });

  it('survives failed renewals shorter than the TTL, and is lost once they last the TTL', async () => {
    let reachable = true;
    const onLost = vi.fn();
    keepLease(options({ renewLease: async () => { if (!reachable) throw new Error('timeout'); return true; } }), LEASE, onLost);
    await vi.advanceTimersByTimeAsync(500);
    reachable = false;
    await vi.advanceTimersByTimeAsync(1_500);
    expect(onLost).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(onLost).toHaveBeenCalledTimes(1);
  });
});

describe('releasing the lease', () => {
  it('releases it, and a failed release is only logged (the lease expires by itself)', async () => {
    const releaseLease1 = vi.fn(async () => {});
    await releaseLease(options({ releaseLease: releaseLease1 }), LEASE);
    expect(releaseLease1).toHaveBeenCalledWith(LEASE);
    await expect(releaseLease(options({ releaseLease: async () => { throw new Error('down'); } }), LEASE)).resolves.toBeUndefined();
  });
});
