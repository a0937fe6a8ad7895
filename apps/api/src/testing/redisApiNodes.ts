import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { createClient, type RedisClientType } from 'redis';
import { createRedisRateLimiter } from '@pubstream/access';
import { createRedisStores } from '@pubstream/read-model';
import { startApiHarness, type ApiHarness } from './apiHarness.js';

/** API nodes of one test file on one Redis: read model and shared rate limits in a namespace of their own. */
export interface RedisApiNodes {
  readonly client: RedisClientType;
  /**
   * Starts a node with its own clock (for the rate limiter's `now`), on `redis` (default: the shared
   * client). Every node is closed after the file's tests.
   */
  start(now: () => Date, redis?: RedisClientType): Promise<ApiHarness>;
}

/** Registers the file's beforeAll / afterAll: connect; close every node and delete the namespace's keys. */
export const useRedisApiNodes = (url: string, prefix: string): RedisApiNodes => {
  const client = createClient({ url }) as RedisClientType;
  const ns = `${prefix}-${randomUUID().slice(0, 8)}`;
  const harnesses: ApiHarness[] = [];

  beforeAll(async () => {
    await client.connect();
  });
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    for await (const keys of client.scanIterator({ MATCH: `${ns}*` })) if (keys.length) await client.del(keys);
    client.destroy();
  });

  return {
    client,
    async start(now, redis = client) {
      const h = await startApiHarness({
        now,
        stores: createRedisStores(redis, { namespace: ns }),
        rateLimiter: createRedisRateLimiter({ client: redis, window: 'minute', now, keyPrefix: `${ns}:rl` }),
      });
      harnesses.push(h);
      return h;
    },
  };
};
