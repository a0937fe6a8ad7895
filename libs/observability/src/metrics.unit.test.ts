import { describe, expect, it } from 'vitest';
import { createHttpMetrics, createMetricsRegistry } from './metrics.js';

describe('createMetricsRegistry', () => {
  it('gives each process its own registry labelled with the app', async () => {
    const registry = createMetricsRegistry({ app: 'admin', collectDefaults: false });
    const http = createHttpMetrics(registry);
    http.requests.inc({ method: 'GET', route: '/admin/keys', status: '200' });
    const text = await registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/admin/keys",status="200",app="admin"} 1');
    // A second registry does not see the first one's metrics (no global state between apps).
    const other = createMetricsRegistry({ app: 'api', collectDefaults: false });
    expect(await other.metrics()).not.toContain('http_requests_total');
  });

  it('collects process metrics when asked', async () => {
    const registry = createMetricsRegistry({ app: 'api' });
    expect(await registry.metrics()).toContain('process_cpu_user_seconds_total');
  });
});
