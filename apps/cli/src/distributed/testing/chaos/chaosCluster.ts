import { connectRedis, type RedisReadModelClient } from '@pubstream/read-model';
import { startLocalRedis, type LocalRedis, type LocalRedisOptions } from '@pubstream/testing';
import { startDistributedCluster, type DistributedCluster } from '../distributedCluster.js';

/** What a chaos scenario runs on: a Redis of its own, the distributed processes, a client to look inside. */
export interface ChaosWorld {
  readonly redis: LocalRedis;
  readonly cluster: DistributedCluster;
  readonly client: RedisReadModelClient;
}

/**
 * Starts a private Redis (infra/local/redis.sh, so the scenario may freeze, flush or kill it) and
 * the distributed processes on it and `brokers`, runs `scenario`, then stops everything, whatever
 * happened.
 */
export const withChaosCluster = async <T>(
  options: { readonly brokers: string; readonly apis: number; readonly projectors: number; readonly env?: Record<string, string>; readonly redis?: LocalRedisOptions },
  scenario: (world: ChaosWorld) => Promise<T>,
): Promise<T> => {
  const redis = await startLocalRedis(options.redis);
  let cluster: DistributedCluster | undefined;
  let client: RedisReadModelClient | undefined;
  try {
    cluster = await startDistributedCluster({ brokers: options.brokers, redisUrl: redis.url, apis: options.apis, projectors: options.projectors, env: options.env });
    client = await connectRedis(redis.url, () => {});
    return await scenario({ redis, cluster, client });
  } finally {
    await cluster?.stop();
    await client?.close().catch(() => {});
    await redis.stop();
  }
};
