#!/usr/bin/env node
// `npm test`: the whole suite, exactly what CI runs (docs/testing.md). Type-check, lint, then every
// test tier. Meanwhile a container engine is made ready and the images are built (cached by
// content), so that the suites run part of their backends, the Pubstream image, the
// testcontainers module and the compose file on a real engine; the rest of the backends come from
// local processes (infra/local), so both paths run in every run. Afterwards everything the run
// started is removed, and the dockerd it started is stopped, even when it fails or is interrupted.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { prepareContainers, releaseEngine, removeLeftovers } from './testContainers.mjs';

const runId = randomUUID().slice(0, 8);
const env = { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' };
// In CI the project installs and starts Redis, the cluster and Kafka itself (infra/local, or
// containers), so a backend that cannot be had there is a failure, not a skip. Locally a missing
// backend skips its suites with one printed line. EventStoreDB is never required: no server
// package exists here.
if (process.env.CI && env.PUBSTREAM_REQUIRE_BACKENDS === undefined) env.PUBSTREAM_REQUIRE_BACKENDS = 'redis,redisCluster,kafka';

const summary = [];
let child = null;
let interrupted = null;

const step = (name, cmd, args, stepEnv = env) =>
  new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
    child = spawn(cmd, args, { stdio: 'inherit', env: stepEnv });
    child.once('exit', (code, signal) => {
      child = null;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      summary.push(`${code === 0 ? '✔' : '✖'} ${name} (${seconds} s)`);
      console.log(code === 0 ? `✔ ${name} (${seconds} s)` : `✖ ${name} failed (exit ${code ?? signal})`);
      resolve(code === 0);
    });
  });

// Ctrl-C, SIGTERM, SIGHUP: pass it on to the running step, then clean up below as usual.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted = signal;
    child?.kill(signal);
  });
}

const useContainers = !process.env.PUBSTREAM_NO_CONTAINERS;
// In the background, while the type-check and the lint run: downloads and compiles overlap.
const containers = useContainers ? prepareContainers(process.pid) : Promise.resolve({ ok: false, lines: [], reason: 'PUBSTREAM_NO_CONTAINERS is set' });

let ok = (await step('type-check', 'npx', ['tsc', '-b'])) && !interrupted;
ok = ok && (await step('lint', 'npx', ['eslint', '.', '--max-warnings=0'])) && !interrupted;

console.log('\n▶ containers: infra/local/dockerd.sh acquire, infra/images/build.sh');
const prepared = await containers;
for (const line of prepared.lines) console.log(line);
if (prepared.ok) {
  summary.push(`✔ containers (${prepared.seconds}, in parallel with the steps above)`);
  Object.assign(env, {
    TESTCONTAINERS_RYUK_DISABLED: env.TESTCONTAINERS_RYUK_DISABLED ?? 'true', // its image cannot be pulled here; removeLeftovers reaps
    PUBSTREAM_TEST_RUN: runId,
    // Redis and the Redis Cluster from containers, Kafka from infra/local: both paths in every run
    // (the container Kafka runs in the container tests). PUBSTREAM_CONTAINER_BACKENDS=all to change.
    PUBSTREAM_CONTAINER_BACKENDS: env.PUBSTREAM_CONTAINER_BACKENDS ?? 'redis,redisCluster',
    PUBSTREAM_REQUIRE_CONTAINERS: env.PUBSTREAM_REQUIRE_CONTAINERS ?? '1',
  });
  if (env.PUBSTREAM_CONTAINER_BACKENDS === 'all') delete env.PUBSTREAM_CONTAINER_BACKENDS;
  // Our own dockerd runs here: its published ports answer on 127.0.0.1 (testcontainers would
  // pick the bridge gateway, since this machine looks like a container to it).
  if (prepared.startedDockerd && !env.DOCKER_HOST) env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  console.log(`✔ containers: backends ${env.PUBSTREAM_CONTAINER_BACKENDS ?? 'all'} from containers, the rest from infra/local`);
} else {
  console.log(`[containers] none for this run: ${prepared.reason}; every backend comes from infra/local, container suites are skipped`);
  summary.push(`✖ containers: ${prepared.reason}`);
  env.PUBSTREAM_NO_CONTAINERS = '1';
  // CI must show the container path running: an engine that cannot be had fails the run there.
  if (process.env.CI && useContainers) ok = false;
}

const filters = process.argv.slice(2);
if (filters.length > 0) {
  if (ok && !interrupted) ok = await step('tests', 'npx', ['vitest', 'run', ...filters]);
} else {
  // The chaos tier kills, freezes and floods whole profiles and measures how fast they recover:
  // it runs after the rest, one scenario at a time, so that its bounds are not eaten by the
  // other tiers' load (docs/testing.md, "The chaos tier").
  if (ok && !interrupted) ok = await step('tests', 'npx', ['vitest', 'run', '--exclude', 'tests/chaos/**']);
  if (ok && !interrupted) ok = await step('chaos tier', 'npx', ['vitest', 'run', 'tests/chaos', '--no-file-parallelism']);
}

if (useContainers) {
  console.log('\n▶ cleanup');
  if (prepared.ok) for (const line of await removeLeftovers(runId)) console.log(line);
  for (const line of await releaseEngine(process.pid)) console.log(line);
}
console.log(`\n${summary.join('\n')}`);
if (interrupted) {
  console.error(`✖ interrupted (${interrupted})`);
  process.exit(130);
}
process.exit(ok ? 0 : 1);
