import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '@pubstream/access';
import { startApiHarness } from './testing/apiHarness.js';
import { expectError } from './testing/expectError.js';

// Black-box tests over real HTTP of the specification's Limits section (rate limits per key) and
// of the deployment switches (docs/decisions.md, "Public interface").

describe('Limits: rate limits per key', () => {
  it('X-RateLimit-* on every keyed response; 429 with Retry-After and the seconds to wait (a sliding minute)', async () => {
    let now = new Date('2026-11-23T10:17:15.000Z');
    const at = (iso: string) => {
      now = new Date(iso);
    };
    const h = await startApiHarness({ now: () => now, rateLimiter: createMemoryRateLimiter({ window: 'minute', now: () => now }) });
    try {
      await h.collection('c');
      const { raw } = await h.key({ rateLimit: 3, allowedDomains: ['example.com'] });
      const unix = (iso: string) => String(Date.parse(iso) / 1000);
      const seen = [];
      for (const time of ['2026-11-23T10:17:15.000Z', '2026-11-23T10:17:20.000Z', '2026-11-23T10:17:25.000Z']) {
        at(time);
        const res = await h.get('/public/data/x', { 'X-API-Key': raw });
        expect(res.status).toBe(404);
        seen.push([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining'), res.headers.get('x-ratelimit-reset')]);
      }
      // Remaining > 0: Reset is when the whole limit is back; Remaining 0: when the next request is admitted.
      expect(seen).toEqual([
        ['3', '2', unix('2026-11-23T10:18:15Z')],
        ['3', '1', unix('2026-11-23T10:18:20Z')],
        ['3', '0', unix('2026-11-23T10:18:15Z')],
      ]);
      at('2026-11-23T10:17:30.000Z');
      const limited = await h.get('/public/collections/c/data', { 'X-API-Key': raw, Origin: 'https://example.com' });
      expect(limited.headers.get('retry-after')).toBe('45');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('x-ratelimit-reset')).toBe(unix('2026-11-23T10:18:15Z'));
      expect(limited.headers.get('access-control-allow-origin')).toBe('https://example.com');
      await expectError(limited, 429, 'Too Many Requests', 'Rate limit exceeded. Try again in 45 seconds.');
      // The top of the minute frees nothing: the window slides.
      at('2026-11-23T10:18:00.000Z');
      await expectError(await h.get('/public/data/x', { 'X-API-Key': raw }), 429, 'Too Many Requests', 'Rate limit exceeded. Try again in 15 seconds.');
      at('2026-11-23T10:18:15.000Z');
      const again = await h.get('/public/collections/c/data', { 'X-API-Key': raw });
      expect(again.status).toBe(200);
      expect([again.headers.get('x-ratelimit-remaining'), again.headers.get('x-ratelimit-reset')]).toEqual(['0', unix('2026-11-23T10:18:20Z')]);
    } finally {
      await h.close();
    }
  });

  it('an hour window slides too (RATE_LIMIT_WINDOW=hour): the top of the hour frees nothing', async () => {
    let now = new Date('2026-11-23T10:17:15.000Z');
    const h = await startApiHarness({ now: () => now, config: { rateLimitWindow: 'hour' } });
    try {
      const { raw } = await h.key({ rateLimit: 1 });
      const res = await h.get('/public/data/x', { 'X-API-Key': raw });
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-23T11:17:15Z') / 1000));
      await expectError(await h.get('/public/data/x', { 'X-API-Key': raw }), 429, 'Too Many Requests', 'Rate limit exceeded. Try again in 3600 seconds.');
      now = new Date('2026-11-23T11:00:00.000Z');
      await expectError(await h.get('/public/data/x', { 'X-API-Key': raw }), 429, 'Too Many Requests', 'Rate limit exceeded. Try again in 1035 seconds.');
      now = new Date('2026-11-23T11:17:15.000Z');
      expect((await h.get('/public/data/x', { 'X-API-Key': raw })).status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('the plan monthly quota (live keys): 429 Try again later.', async () => {
    const h = await startApiHarness();
    try {
      await h.plan('pro', 2);
      const { raw } = await h.key({ rateLimit: 100 });
      const { raw: testRaw } = await h.key({ type: 'test', rateLimit: 100 });
      expect((await h.get('/public/data/x', { 'X-API-Key': raw })).status).toBe(404);
      expect((await h.get('/public/data/x', { 'X-API-Key': raw })).status).toBe(404);
      const over = await h.get('/public/data/x', { 'X-API-Key': raw });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      await expectError(over, 429, 'Too Many Requests', 'Rate limit exceeded. Try again later.');
      expect((await h.get('/public/data/x', { 'X-API-Key': testRaw })).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('deployment switches', () => {
  it('ACCEPT_TEST_KEYS=false: test keys get 401', async () => {
    const h = await startApiHarness({ config: { acceptTestKeys: false } });
    try {
      const { raw } = await h.key({ type: 'test' });
      await expectError(await h.get('/public/data/x', { 'X-API-Key': raw }), 401, 'Unauthorized', 'Invalid API key');
    } finally {
      await h.close();
    }
  });
  it('REQUIRE_BROWSER_ORIGIN=true: live keys without a domain get 403; test keys still pass', async () => {
    const h = await startApiHarness({ config: { requireBrowserOrigin: true } });
    try {
      const { raw } = await h.key({ allowedDomains: ['example.com'] });
      const { raw: testRaw } = await h.key({ type: 'test' });
      await expectError(await h.get('/public/data/x', { 'X-API-Key': raw }), 403, 'Forbidden', 'Domain not allowed for this API key');
      expect((await h.get('/public/data/x', { 'X-API-Key': raw, Origin: 'https://example.com' })).status).toBe(404);
      expect((await h.get('/public/data/x', { 'X-API-Key': testRaw })).status).toBe(404);
    } finally {
      await h.close();
    }
  });
  it('a failing read model is 503 JSON, never 500; /readyz turns 503', async () => {
    const h = await startApiHarness();
    const { raw } = await h.key();
    const broken = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    (h.stores.readModel as unknown as Record<string, unknown>).getItem = () => Promise.reject(broken);
    (h.stores as unknown as Record<string, unknown>).ping = () => Promise.reject(broken);
    try {
      const res = await h.get('/public/data/x', { 'X-API-Key': raw });
      await expectError(res, 503, 'Service Unavailable', 'Service temporarily unavailable, try again shortly');
      const ready = await h.get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('1');
      expect(await ready.json()).toEqual({
        error: 'Service Unavailable',
        message: 'Not ready: readModel failing (connect ECONNREFUSED 127.0.0.1:6379)',
        status: 'unavailable',
        checks: { readModel: 'failing: connect ECONNREFUSED 127.0.0.1:6379', caughtUp: 'ok', changeStream: 'ok' },
      });
    } finally {
      await h.close();
    }
  });
});
