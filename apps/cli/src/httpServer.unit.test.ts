import { describe, expect, it } from 'vitest';
import { drainGraceMs } from './httpServer.js';

describe('drainGraceMs', () => {
  it('leaves a fifth of SHUTDOWN_TIMEOUT_MS, at most 2 s, for closing the adapters after the requests', () => {
    expect(drainGraceMs({ shutdownTimeoutMs: 10_000 })).toBe(8_000);
    expect(drainGraceMs({ shutdownTimeoutMs: 60_000 })).toBe(58_000);
    expect(drainGraceMs({ shutdownTimeoutMs: 1_000 })).toBe(800);
    expect(drainGraceMs({ shutdownTimeoutMs: 1 })).toBe(1);
  });
});
