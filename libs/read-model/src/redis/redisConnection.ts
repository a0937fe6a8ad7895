import { createClient, createCluster, type RedisClientOptions, type RedisClientType, type RedisClusterType } from 'redis';

/** A connected node-redis v6 client: one Redis, or a Redis Cluster. */
export type RedisReadModelClient = RedisClientType | RedisClusterType;

/**
 * Client options every Pubstream process uses, so that a Redis outage surfaces as rejected
 * promises (the API answers 503) instead of commands queued forever: no offline queue, a
 * bounded connect timeout, and reconnection with capped backoff for as long as it takes.
 */
export const createRedisClientOptions = (url: string): RedisClientOptions => ({
  url,
  disableOfflineQueue: true,
  socket: {
    connectTimeout: 2_000,
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), 2_000),
  },
});

/**
 * A client for a Redis URL, or for a Redis Cluster when `urls` holds several comma-separated
 * `redis://` URLs (its seed masters). `onError` receives connection errors: a node-redis client
 * without an 'error' listener would crash the process on the first one. Resolves once connected;
 * commands issued while disconnected reject at once.
 */
export const connectRedis = async (urls: string, onError: (error: Error) => void): Promise<RedisReadModelClient> => {
  const list = urls.split(',').map((url) => url.trim()).filter(Boolean);
  if (list.length > 1) {
    const { url: _url, ...defaults } = createRedisClientOptions(list[0] as string);
    const cluster = createCluster({ rootNodes: list.map((url) => ({ url })), defaults });
    cluster.on('error', onError);
    await cluster.connect();
    return cluster as unknown as RedisReadModelClient;
  }
  const client = createClient(createRedisClientOptions(list[0] ?? 'redis://127.0.0.1:6379'));
  client.on('error', onError);
  await client.connect();
  return client as unknown as RedisReadModelClient;
};
