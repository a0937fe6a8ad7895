import type { RedisClientType } from 'redis';
import { connectRedis } from '@pubstream/read-model';

/** Faults injected into a Redis of the test's own (startLocalRedis): never the shared one. */
export interface RedisFaults {
  /** The redis-server's process id (from INFO). */
  readonly pid: number;
  /** SIGSTOP: the server keeps its connections but answers nothing (a frozen or swapped-out host). */
  freeze(): void;
  /** SIGCONT; harmless when not frozen or gone. Call it in afterAll too, whatever happened. */
  thaw(): void;
  /** FLUSHALL: Redis loses every key (an operator's mistake, a failover to an empty replica). */
  flushAll(): Promise<void>;
  /** Thaws, then disconnects. */
  close(): Promise<void>;
}

/** Connects to the (single, private) Redis at `url` to find its process and to flush it. */
export const redisFaults = async (url: string): Promise<RedisFaults> => {
  const client = (await connectRedis(url, () => {})) as RedisClientType;
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`could not find the process id of the Redis at ${url}`);
  let frozen = false;
  const thaw = (): void => {
    if (!frozen) return;
    frozen = false;
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Already gone: nothing to resume.
    }
  };
  return {
    pid,
    freeze() {
      frozen = true;
      process.kill(pid, 'SIGSTOP');
    },
    thaw,
    async flushAll() {
      await client.flushAll();
    },
    async close() {
      thaw();
      await client.close().catch(() => {});
    },
  };
};
