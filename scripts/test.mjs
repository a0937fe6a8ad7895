#!/usr/bin/env node
// `npm test`: the whole suite, exactly what CI runs. Type-check, lint, then every test tier.
// Backends (Redis, a Redis Cluster, Kafka, Chromium) are provided by the vitest global setup:
// from REDIS_URL / KAFKA_BROKERS / ESDB_CONNECTION_STRING, else testcontainers, else infra/local.
import { spawnSync } from 'node:child_process';

// In CI the project installs and starts Redis, the cluster and Kafka itself (infra/local), so a
// backend that cannot be had there is a failure, not a skip. Locally a missing backend skips its
// suites with one printed line. EventStoreDB is never required: no server package exists here.
const env = { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' };
if (process.env.CI && env.PUBSTREAM_REQUIRE_BACKENDS === undefined) env.PUBSTREAM_REQUIRE_BACKENDS = 'redis,redisCluster,kafka';

const steps = [
  ['type-check', 'npx', ['tsc', '-b']],
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0']],
  ['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
];

for (const [name, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`✖ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
