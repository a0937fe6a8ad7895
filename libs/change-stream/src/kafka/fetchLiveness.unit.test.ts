import { describe, expect, it } from 'vitest';
import { createFetchLiveness } from './fetchLiveness.js';

describe('fetch liveness', () => {
  it('is healthy while fetches answer, and names the silence once it lasts longer than the bound', () => {
    let now = 1_000;
    const liveness = createFetchLiveness({ staleAfterMs: 5_000, nowMs: () => now });
    expect(liveness.problem()).toBeNull();
    now += 4_000;
    liveness.seen();
    now += 5_000;
    expect(liveness.problem()).toBeNull();
    now += 1_500;
    expect(liveness.problem()).toBe('no answer from Kafka for 6.5 s');
    liveness.seen();
    expect(liveness.problem()).toBeNull();
  });
});
