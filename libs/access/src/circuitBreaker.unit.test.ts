import { describe, expect, it } from 'vitest';
import { createCircuitBreaker } from './circuitBreaker.js';

describe('circuit breaker in front of Redis', () => {
  it('given a failure, calls go to the fallback for openMs, then one probe decides', () => {
    let now = 0;
    const breaker = createCircuitBreaker({ openMs: 1_000, nowMs: () => now });
    expect(breaker.allow()).toBe(true);
    expect(breaker.failed()).toBe(true);
    expect(breaker.allow()).toBe(false);
    now = 999;
    expect(breaker.allow()).toBe(false);
    now = 1_000;
    // One probe at a time: the others keep using the fallback meanwhile.
    expect(breaker.allow()).toBe(true);
    expect(breaker.allow()).toBe(false);
    // A failed probe opens it again (not a new outage: no second log line).
    expect(breaker.failed()).toBe(false);
    expect(breaker.allow()).toBe(false);
    now = 2_000;
    expect(breaker.allow()).toBe(true);
    breaker.succeeded();
    expect(breaker.allow()).toBe(true);
    expect(breaker.allow()).toBe(true);
  });
});
