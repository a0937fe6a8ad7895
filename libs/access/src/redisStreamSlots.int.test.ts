import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBackend } from '@pubstream/testing';
import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { createRedisStreamSlots } from './redisStreamSlots.js';
import { testStreamSlotsContract } from './testing/streamSlotsContract.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Real time on the Redis server's clock: a TTL long enough for a loaded machine to refresh in time.
const TTL_MS = 1_500;

for (const backend of ['redis', 'redisCluster'] as const) {
  describeWithBackend(backend, `stream slots on ${backend}`, (url) => {
    let shared: RedisReadModelClient | undefined;
    const prefix = `test:streams:${randomUUID()}:`;
    beforeAll(async () => {
      shared = await connectRedis(url, () => {});
    });
    afterAll(async () => {
      await shared?.close();
    });

    testStreamSlotsContract(
      backend,
      () => ({
        node: (ttlMs) => createRedisStreamSlots({ client: shared as RedisReadModelClient, ttlMs, keyPrefix: prefix }),
        advance: sleep,
      }),
      { ttlMs: TTL_MS },
    );

    it('gives 503 within its timeout when Redis does not answer, instead of hanging', async () => {
      const frozen = { sendCommand: () => new Promise(() => {}) } as unknown as RedisReadModelClient;
      const slots = createRedisStreamSlots({ client: frozen, timeoutMs: 100 });
      await expect(slots.acquire('k', 's', 1)).rejects.toMatchObject({ status: 503 });
      await expect(slots.refresh()).resolves.toBeUndefined();
      await expect(slots.count('k')).rejects.toMatchObject({ status: 503 });
    });
  });
}
