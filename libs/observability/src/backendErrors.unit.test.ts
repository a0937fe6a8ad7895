import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BackendErrorTally, registerBackendErrorMetrics } from './backendErrors.js';

describe('backend error metrics', () => {
  it('given errors counted before and after registration, then a scrape shows every one by backend and kind', async () => {
    const tally = new BackendErrorTally();
    tally.count('redis', 'connection');
    const registry = new Registry();
    registerBackendErrorMetrics(registry, tally);
    expect(await registry.metrics()).toContain('pubstream_backend_errors_total{backend="kafka",kind="client"} 0');
    tally.count('redis', 'connection');
    tally.count('kafka', 'client');
    const text = await registry.metrics();
    expect(text).toContain('pubstream_backend_errors_total{backend="redis",kind="connection"} 2');
    expect(text).toContain('pubstream_backend_errors_total{backend="kafka",kind="client"} 1');
  });
});
