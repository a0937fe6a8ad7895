import { spawnSync } from 'node:child_process';

/** `redis-benchmark -t get` against the given Redis: the store's own ceiling on this machine. */
export const redisBenchmarkGet = (port: number, requests: number): { opsPerSecond: number; p50Ms?: number; p99Ms?: number } => {
  const result = spawnSync('redis-benchmark', ['-h', '127.0.0.1', '-p', String(port), '-t', 'get', '-n', String(requests), '-c', '50', '--csv'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`redis-benchmark failed: ${result.stderr || result.error?.message}`);
  // CSV: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
  const line = result.stdout.split('\n').find((l) => l.startsWith('"GET"'));
  if (!line) throw new Error(`unexpected redis-benchmark output: ${result.stdout}`);
  const cells = line.split(',').map((c) => Number(c.replaceAll('"', '')));
  return { opsPerSecond: cells[1] ?? 0, p50Ms: cells[4], p99Ms: cells[6] };
};

/** CPU seconds the Redis server on `port` has used so far (user + system, from `INFO cpu`): per
 * event, a figure the load of a shared machine distorts much less than a rate. */
export const redisCpuSeconds = (port: number): number => {
  const result = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'info', 'cpu'], { encoding: 'utf8', timeout: 10_000 });
  if (result.status !== 0) throw new Error(`redis-cli info cpu failed: ${result.stderr || result.error?.message}`);
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(result.stdout)?.[1] ?? Number.NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
};
