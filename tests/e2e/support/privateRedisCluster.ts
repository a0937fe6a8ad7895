// The distributed processes on a Redis of the test file's own (so a test may kill, flush or
// inspect it), with a Redis client for looking inside: started before the file's tests, stopped after.
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { startLocalRedis, type LocalRedis } from '@pubstream/testing';
import { startDistributedCluster, type DistributedCluster } from '../../../apps/cli/src/distributed/testing/distributedCluster.js';

export interface PrivateRedisCluster {
  readonly redis: LocalRedis;
  readonly cluster: DistributedCluster;
  readonly client: RedisReadModelClient;
}

/**
 * Registers the file's beforeAll / afterAll; read the fields inside tests. Hooks the file registers
 * after this call run after the start and before the stop.
 */
export const usePrivateRedisCluster = (brokers: string, processes: { apis: number; projectors: number; env?: Record<string, string> }): PrivateRedisCluster => {
  let redis: LocalRedis | undefined;
  let cluster: DistributedCluster | undefined;
  let client: RedisReadModelClient | undefined;

  beforeAll(async () => {
    redis = await startLocalRedis();
    cluster = await startDistributedCluster({ brokers, redisUrl: redis.url, ...processes });
    client = await connectRedis(redis.url, () => {});
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await client?.close();
    await redis?.stop();
  }, 60_000);

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the private Redis cluster is not started (use it inside a test)');
    return value;
  };
  return {
    get redis() {
      return started(redis);
    },
    get cluster() {
      return started(cluster);
    },
    get client() {
      return started(client);
    },
  };
};
