import { describe, expect, it } from 'vitest';
import { healthProbes } from './healthProbes.js';
import { koaContext, runMiddleware } from './testing/koaContext.js';

describe('healthProbes', () => {
  it('answers liveness without asking the read model, and readiness after asking it', async () => {
    let pings = 0;
    const probes = healthProbes(async () => void pings++);
    for (const path of ['/healthz', '/readyz']) {
      const ctx = koaContext({ path });
      expect(await runMiddleware(probes, ctx)).toBe(false);
      expect(ctx.body).toEqual({ status: 'ok' });
    }
    expect(pings).toBe(1);
  });

  it('is not ready (503) when the read model does not answer', async () => {
    const probes = healthProbes(async () => Promise.reject(new Error('ECONNREFUSED')));
    await expect(runMiddleware(probes, koaContext({ path: '/readyz' }))).rejects.toMatchObject({ status: 503, message: 'The read model is not reachable' });
  });

  it('leaves other methods and paths to the next middleware', async () => {
    const probes = healthProbes(async () => undefined);
    expect(await runMiddleware(probes, koaContext({ method: 'POST', path: '/healthz' }))).toBe(true);
    expect(await runMiddleware(probes, koaContext({ path: '/healthz/x' }))).toBe(true);
  });
});
