import { expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import type { ApiHarness } from './testing/apiHarness.js';
import { useRedisApiNodes } from './testing/redisApiNodes.js';

// Issue 15, finding 8: two API nodes on one Redis, each with its own (fake) clock, 5 s apart and
// days away from the real time. With windows taken from the Redis server clock, what the nodes'
// clocks say must not matter at all (docs/public-api.md, Rate limits).

describeWithBackend('redis', 'rate limits on two API nodes whose clocks differ by 5 s', (url) => {
  const nodes = useRedisApiNodes(url, 'rl-skew');
  const clocks = { a: 0, b: 0 };
  /** Node a's clock at `iso`; node b's clock 5 s ahead of it. */
  const setClocks = (iso: string) => {
    clocks.a = Date.parse(iso);
    clocks.b = clocks.a + 5_000;
  };
  const node = (name: 'a' | 'b'): Promise<ApiHarness> => nodes.start(() => new Date(clocks[name]));
  const burst = (nodes: ApiHarness[], count: number, raw: string) =>
    Promise.all(Array.from({ length: count }, (_, i) => nodes[i % nodes.length]!.get('/public/data/x', { 'X-API-Key': raw })));
  const admitted = (responses: Response[]) => responses.filter((r) => r.status === 200).length;

  it('never admits more than the limit in one window, and the headers follow the server clock', async () => {
    // Node a just before a minute boundary, node b 5 s ahead: in different minutes by their clocks.
    setClocks('2026-11-23T10:17:57.500Z');
    const [a, b] = [await node('a'), await node('b')];
    await a.collection('c');
    await a.item('c', 'x', { n: 1 });
    const { raw } = await a.key({ rateLimit: 20 });

    const responses = await burst([a, b], 40, raw);
    expect(admitted(responses)).toBe(20);
    const realNow = Date.now() / 1000;
    for (const response of responses) {
      expect(response.headers.get('x-ratelimit-limit')).toBe('20');
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(Number.isInteger(reset)).toBe(true);
      // The server's time (this machine's), not the nodes' clocks two days in the past.
      expect(reset).toBeGreaterThan(realNow - 5);
      expect(reset).toBeLessThanOrEqual(realNow + 61);
      if (response.status !== 429) {
        expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
        continue;
      }
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(await response.json()).toEqual({ error: 'Too Many Requests', message: `Rate limit exceeded. Try again in ${retryAfter} seconds.` });
    }
  });

  it('across a window boundary of the nodes’ clocks: never twice the limit', async () => {
    setClocks('2026-11-23T10:17:59.800Z');
    const [a, b] = [await node('a'), await node('b')];
    await a.collection('c');
    await a.item('c', 'x', { n: 1 });
    const { raw } = await a.key({ rateLimit: 10 });

    const before = await burst([a], 15, raw);
    // 400 ms later by the nodes' clocks, node a is in the next minute.
    setClocks('2026-11-23T10:18:00.200Z');
    const after = await burst([a, b], 15, raw);
    expect(admitted(before) + admitted(after)).toBe(10);
    expect(admitted(after)).toBe(0);
  });
});
