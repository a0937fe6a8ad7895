import { createReadiness } from '@pubstream/http';
import { describe, expect, it } from 'vitest';
import { healthProbes } from './healthProbes.js';
import { koaContext, runMiddleware } from './testing/koaContext.js';

const readinessOf = (probe: () => Promise<void>) => createReadiness({ timeoutMs: 200, checks: [{ name: 'readModel', required: true, probe }] });

describe('healthProbes', () => {
  it('answers liveness without asking the read model, and readiness after asking it', async () => {
    let pings = 0;
    const probes = healthProbes(readinessOf(async () => void pings++));
    const live = koaContext({ path: '/healthz' });
    expect(await runMiddleware(probes, live)).toBe(false);
    expect(live.body).toEqual({ status: 'ok' });
    expect(pings).toBe(0);
    const ready = koaContext({ path: '/readyz' });
    expect(await runMiddleware(probes, ready)).toBe(false);
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready', checks: { readModel: 'ok' } }]);
    expect(pings).toBe(1);
  });

  it('is not ready (503, naming the failing dependency) when the read model does not answer', async () => {
    const ctx = koaContext({ path: '/readyz' });
    await runMiddleware(healthProbes(readinessOf(async () => Promise.reject(new Error('ECONNREFUSED')))), ctx);
    expect(ctx.status).toBe(503);
    expect(ctx.body).toMatchObject({ error: 'Service Unavailable', status: 'unavailable', checks: { readModel: 'failing: ECONNREFUSED' } });
  });

  it('leaves other methods and paths to the next middleware', async () => {
    const probes = healthProbes(readinessOf(async () => undefined));
    expect(await runMiddleware(probes, koaContext({ method: 'POST', path: '/healthz' }))).toBe(true);
    expect(await runMiddleware(probes, koaContext({ path: '/healthz/x' }))).toBe(true);
  });
});
