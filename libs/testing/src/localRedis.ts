import { cleanupOnExit } from './cleanupOnExit.js';
import { runLocalScript, runLocalScriptSync } from './localScripts.js';

export interface LocalRedisOptions {
  /** AOF on (appendfsync everysec), so a SIGKILLed server comes back with its data. */
  appendonly?: boolean;
  /** A fixed port; default: a free one. */
  port?: number;
  /** Where the data lives; default: the server's own state folder. */
  dir?: string;
}

export interface LocalRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL: a crash. With appendonly, `restart()` brings the data back. */
  kill(): Promise<void>;
  /** Starts it again on the same port (and data folder) after `kill()`. */
  restart(): Promise<void>;
  /** Graceful stop; removes its state folder. */
  stop(): Promise<void>;
}

/**
 * A throwaway redis-server of its own (infra/local/redis.sh), for tests that crash or restart
 * Redis and so cannot share the global one: `const redis = await startLocalRedis({ appendonly: true })`.
 */
export const startLocalRedis = async (options: LocalRedisOptions = {}): Promise<LocalRedis> => {
  const flags = [
    ...(options.appendonly ? ['--appendonly'] : []),
    ...(options.dir ? ['--dir', options.dir] : []),
  ];
  const url = await runLocalScript('redis.sh', ['start', ...flags, ...(options.port ? ['--port', String(options.port)] : [])]);
  const port = Number(new URL(url).port);
  const unregister = cleanupOnExit(() => runLocalScriptSync('redis.sh', ['stop', String(port)]));
  return {
    url,
    port,
    kill: async () => {
      await runLocalScript('redis.sh', ['kill', String(port)]);
    },
    restart: async () => {
      await runLocalScript('redis.sh', ['start', ...flags, '--port', String(port)]);
    },
    stop: async () => {
      unregister();
      await runLocalScript('redis.sh', ['stop', String(port)]);
    },
  };
};
