import { createMemoryRateLimiter } from '@pubstream/access';
import { describe, expect, it } from 'vitest';
import { createIpcRateLimiter, rateLimiterHandlers } from './ipcRateLimiter.js';
import { createMemoryChannelPair } from './memoryChannelPair.js';
import { createIpcClient, serveIpc } from './workerIpc.js';

/** Two workers, each with its own channel to one primary limiter. */
const twoWorkers = () => {
  const limiter = createMemoryRateLimiter({ window: 'minute', now: () => new Date('2026-01-15T10:00:30Z') });
  return [1, 2].map(() => {
    const pair = createMemoryChannelPair();
    serveIpc(pair.primary, rateLimiterHandlers(limiter));
    return createIpcRateLimiter(createIpcClient(pair.worker, { timeoutMs: 1_000 }));
  });
};

describe('IPC rate limiter', () => {
  it('admits exactly the limit across workers, however the requests are spread and batched', async () => {
    const [a, b] = twoWorkers() as [ReturnType<typeof createIpcRateLimiter>, ReturnType<typeof createIpcRateLimiter>];
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? a : b).consume('key-1', 5)));
    expect(results.filter((result) => result.allowed)).toHaveLength(5);
    const refused = results.find((result) => !result.allowed);
    expect(refused).toMatchObject({ limit: 5, remaining: 0 });
    expect(refused?.retryAfter).toBeGreaterThanOrEqual(1);
    // Another key has its own window.
    await expect(a.consume('key-2', 5)).resolves.toMatchObject({ allowed: true, remaining: 4 });
  });

  it('counts the monthly quota across workers too', async () => {
    const [a, b] = twoWorkers() as [ReturnType<typeof createIpcRateLimiter>, ReturnType<typeof createIpcRateLimiter>];
    const results = await Promise.all([a.consumeMonthly('k', 2), b.consumeMonthly('k', 2), a.consumeMonthly('k', 2)]);
    expect(results.filter((result) => result.allowed)).toHaveLength(2);
  });
});
