import { requestMetrics } from '@pubstream/http';
import { createMetricsRegistry } from '@pubstream/observability';
import { describe, expect, it } from 'vitest';
import { metricsEndpoint } from './metricsEndpoint.js';
import { koaContext, runMiddleware } from './testing/koaContext.js';

describe('requestMetrics and metricsEndpoint', () => {
  it('count requests by matched route pattern, never the raw path, and serve them at GET /metrics', async () => {
    const registry = createMetricsRegistry({ app: 'admin', collectDefaults: false });
    const measure = requestMetrics(registry);
    const ctx = koaContext({ path: '/admin/keys/abc' });
    await measure(ctx, async () => {
      Object.assign(ctx, { _matchedRoute: '/admin/keys/:keyId' });
      ctx.status = 200;
    });
    await measure(koaContext({ path: '/nowhere' }), async () => undefined);

    const scrape = koaContext({ path: '/metrics' });
    expect(await runMiddleware(metricsEndpoint(registry), scrape)).toBe(false);
    const text = String(scrape.body);
    expect(text).toContain('http_requests_total{method="GET",route="/admin/keys/:keyId",status="200",app="admin"} 1');
    expect(text).toContain('route="unmatched"');
    expect(text).not.toContain('/admin/keys/abc');
    expect(await runMiddleware(metricsEndpoint(registry), koaContext({ method: 'POST', path: '/metrics' }))).toBe(true);
    // HEAD is GET without the body, as on every GET route (found by the fuzz target's contract check).
    expect(await runMiddleware(metricsEndpoint(registry), koaContext({ method: 'HEAD', path: '/metrics' }))).toBe(false);
  });
});
