import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, expect, it } from 'vitest';
import { startLocalRedis, type LocalRedis } from './localRedis.js';

// The helper that crash tests use: a Redis of their own, with AOF, that survives SIGKILL + restart.
const servers: LocalRedis[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

it('keeps acknowledged writes across a SIGKILL and restart when appendonly is on', async () => {
  const redis = await startLocalRedis({ appendonly: true });
  servers.push(redis);
  const key = `crash:${randomUUID()}`;
  const client = createClient({ url: redis.url });
  await client.connect();
  await client.set(key, 'kept');
  // appendfsync everysec: the write reaches the disk within about a second.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  client.destroy();
  await redis.kill();
  await expect(fetchPing(redis.url)).rejects.toThrow();
  await redis.restart();
  const again = createClient({ url: redis.url });
  await again.connect();
  try {
    expect(await again.get(key)).toBe('kept');
  } finally {
    again.destroy();
  }
});

const fetchPing = async (url: string): Promise<string> => {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 1_000 } });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.ping();
  } finally {
    client.destroy();
  }
};
