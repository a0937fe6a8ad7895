import { spawnSync } from 'node:child_process';

/** Runs an infra/local script and returns what it printed on stdout (its URL). */
const runScript = (script: string, args: readonly string[]): string => {
  const result = spawnSync('bash', [`infra/local/${script}`, ...args], { encoding: 'utf8', timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`infra/local/${script} ${args.join(' ')} failed (${result.status})`);
  return result.stdout.trim().split('\n').pop() ?? '';
};

export interface LocalBackend {
  readonly url: string;
  stop(): void;
}

/** A throwaway redis-server from infra/local/redis.sh, or null when it cannot be had here. */
export const startBenchRedis = (): LocalBackend | null => {
  try {
    const url = runScript('redis.sh', ['start']);
    return { url, stop: () => runScript('redis.sh', ['stop', url]) };
  } catch (error) {
    console.log(`  [skip] Redis profile: ${(error as Error).message}`);
    return null;
  }
};

/** A single-node Kafka broker from infra/local/kafka.sh, or null when it cannot be had here. */
export const startBenchKafka = (): LocalBackend | null => {
  try {
    const brokers = runScript('kafka.sh', ['start']);
    return { url: brokers, stop: () => runScript('kafka.sh', ['stop', brokers]) };
  } catch (error) {
    console.log(`  [skip] Kafka: ${(error as Error).message}`);
    return null;
  }
};
