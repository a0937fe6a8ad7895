import type { TestProject } from 'vitest/node';
import type { BackendName, Backends } from './backends.js';
import { cleanupOnExit } from './cleanupOnExit.js';
import { probeBackend } from './backendProbe.js';
import { detectContainerEngine, type EngineState } from './containerEngine.js';
import {
  defaultContainerImages,
  startEsdbContainer,
  startKafkaContainer,
  startRedisClusterContainer,
  startRedisContainer,
} from './containerBackends.js';
import { containerSupport, describeContainerSupport } from './containerSetup.js';
import { runLocalScript, runLocalScriptSync, type LocalScript } from './localScripts.js';
import type { StartedBackend } from './startedBackend.js';

/**
 * Vitest global setup: gives every test its backends, once per run, in parallel. For each backend,
 * in order: the URL from the environment; else a container when a container engine answers within
 * ~3 s (testcontainers) and the container answers a probe from here; else a local process from
 * infra/local/ (not for EventStoreDB: no server package is reachable here); else the backend is
 * skipped, and its suites print one line saying why. It also tells container tests what they can
 * use (describeWithContainers). docs/testing.md describes all of it.
 *
 * Knobs (environment): REDIS_URL, REDIS_CLUSTER_URLS, KAFKA_BROKERS, ESDB_CONNECTION_STRING;
 * PUBSTREAM_TEST_BACKENDS=redis,kafka (which to provide; default all, `none` for none);
 * PUBSTREAM_REQUIRE_BACKENDS=redis,kafka (fail the run instead of skipping these);
 * PUBSTREAM_CONTAINER_BACKENDS=redis,redisCluster (which may come from containers; default all);
 * PUBSTREAM_NO_CONTAINERS=1 (never try testcontainers); PUBSTREAM_REQUIRE_CONTAINERS=1 (fail when
 * the engine or an image is missing); REDIS_IMAGE, KAFKA_IMAGE, ESDB_IMAGE, PUBSTREAM_IMAGE;
 * PUBSTREAM_TEST_RUN (label value put on every container, see scripts/test.mjs).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const all: BackendName[] = ['redis', 'redisCluster', 'kafka', 'esdb'];
  const wanted = parseList(env.PUBSTREAM_TEST_BACKENDS, all);
  const required = parseList(env.PUBSTREAM_REQUIRE_BACKENDS, []);
  const fromContainers = parseList(env.PUBSTREAM_CONTAINER_BACKENDS, all);
  const images = {
    redis: env.REDIS_IMAGE ?? defaultContainerImages.redis,
    kafka: env.KAFKA_IMAGE ?? defaultContainerImages.kafka,
    esdb: env.ESDB_IMAGE ?? defaultContainerImages.esdb,
  };
  // scripts/test.mjs removes what an interrupted run left behind by these labels.
  const labels = { 'org.pubstream.test-run': env.PUBSTREAM_TEST_RUN ?? `vitest-${process.pid}`, 'org.pubstream.owner-pid': String(process.pid) };

  const engine: EngineState = env.PUBSTREAM_NO_CONTAINERS
    ? { available: false, reason: 'containers disabled (PUBSTREAM_NO_CONTAINERS)' }
    : await detectContainerEngine();
  const containers = await containerSupport(engine, { pubstream: env.PUBSTREAM_IMAGE ?? 'pubstream:local', redis: images.redis, kafka: images.kafka }, labels);
  console.log(describeContainerSupport(containers, engine));

  const sources: Record<BackendName, BackendSources> = {
    redis: {
      envVar: 'REDIS_URL',
      container: () => startRedisContainer(images.redis, labels),
      local: () => startLocal('redis.sh', 120_000),
    },
    redisCluster: {
      envVar: 'REDIS_CLUSTER_URLS',
      container: () => startRedisClusterContainer(images.redis, labels),
      local: () => startLocal('redis-cluster.sh', 120_000),
    },
    kafka: {
      envVar: 'KAFKA_BROKERS',
      container: () => startKafkaContainer(images.kafka, labels),
      // The first run resolves the Kafka jars with Maven (cached afterwards); later runs take seconds.
      local: () => startLocal('kafka.sh', 900_000),
    },
    esdb: {
      envVar: 'ESDB_CONNECTION_STRING',
      container: () => startEsdbContainer(images.esdb, labels),
      noLocal: 'no local EventStoreDB/KurrentDB server: no reachable registry ships one',
    },
  };

  const started: StartedBackend[] = [];
  const stopAllSync = () => {
    for (const backend of started.splice(0)) backend.stopSync?.();
  };
  const unregisterCleanup = cleanupOnExit(stopAllSync);

  const provideOne = async (name: BackendName): Promise<Outcome> => {
    const t0 = Date.now();
    if (!wanted.includes(name)) return { skipped: `not requested (PUBSTREAM_TEST_BACKENDS=${env.PUBSTREAM_TEST_BACKENDS})` };
    const { envVar, container, local, noLocal } = sources[name];
    const fromEnv = env[envVar];
    if (fromEnv) return { backend: { url: fromEnv, source: envVar, stop: async () => {} }, ms: Date.now() - t0 };
    const reasons = [`${envVar} not set`];
    if (!fromContainers.includes(name)) {
      reasons.push(`not from containers (PUBSTREAM_CONTAINER_BACKENDS=${env.PUBSTREAM_CONTAINER_BACKENDS})`);
    } else if (engine.available) {
      const fromContainer = await startContainer(name, container);
      if ('backend' in fromContainer) return { backend: fromContainer.backend, ms: Date.now() - t0 };
      reasons.push(fromContainer.failed);
    } else {
      reasons.push(engine.reason);
    }
    if (!local) return { skipped: [...reasons, noLocal].join('; ') };
    try {
      const backend = await local();
      started.push(backend);
      // Say why not a container, when one was tried: a fallback should never go unnoticed.
      const tried = reasons.filter((reason) => reason.startsWith('container'));
      return { backend, ms: Date.now() - t0, note: tried.join('; ') || undefined };
    } catch (error) {
      return { skipped: [...reasons, `local start failed: ${firstLine(error)}`].join('; ') };
    }
  };

  /** A container that started AND answers a probe from here; one that does not is removed. */
  const startContainer = async (name: BackendName, start: () => Promise<StartedBackend>): Promise<{ backend: StartedBackend } | { failed: string }> => {
    let backend: StartedBackend;
    try {
      backend = await start();
    } catch (error) {
      return { failed: `container failed: ${firstLine(error)}` };
    }
    started.push(backend);
    try {
      await probeBackend(name, backend.url);
      return { backend };
    } catch (error) {
      started.splice(started.indexOf(backend), 1);
      await backend.stop().catch(() => {});
      return { failed: `container ${backend.source} did not answer from here: ${firstLine(error)}` };
    }
  };

  const outcomes = await Promise.all(all.map(async (name) => [name, await provideOne(name)] as const));
  const backends: Backends = { skipped: {} };
  for (const [name, outcome] of outcomes) {
    if ('backend' in outcome) {
      backends[name] = outcome.backend.url;
      const note = outcome.note ? `; ${outcome.note}` : '';
      console.log(`[backends] ${name.padEnd(12)} ${outcome.backend.url}  (from ${outcome.backend.source}, ${(outcome.ms / 1000).toFixed(1)} s${note})`);
    } else {
      backends.skipped[name] = outcome.skipped;
      console.log(`[backends] ${name.padEnd(12)} skipped: ${outcome.skipped}`);
    }
  }
  const missing = required.filter((name) => !backends[name]);
  const containersMissing = env.PUBSTREAM_REQUIRE_CONTAINERS && (containers.unavailable ?? (containers.missingImages.length > 0 ? `missing images ${containers.missingImages.join(', ')}` : null));
  if (missing.length > 0 || containersMissing) {
    unregisterCleanup();
    await stopAll(started);
    if (containersMissing) throw new Error(`containers required (PUBSTREAM_REQUIRE_CONTAINERS) but unavailable: ${containersMissing}`);
    throw new Error(`required backends unavailable (PUBSTREAM_REQUIRE_BACKENDS): ${missing.join(', ')}`);
  }
  project.provide('backends', backends);
  project.provide('containers', containers);

  return async () => {
    unregisterCleanup();
    await stopAll(started);
  };
}

interface BackendSources {
  envVar: string;
  container: () => Promise<StartedBackend>;
  local?: () => Promise<StartedBackend>;
  /** Why there is no local fallback. */
  noLocal?: string;
}

type Outcome = { backend: StartedBackend; ms: number; note?: string } | { skipped: string };

const startLocal = async (script: LocalScript, timeoutMs: number): Promise<StartedBackend> => {
  const url = await runLocalScript(script, ['start'], timeoutMs);
  return {
    url,
    source: `infra/local/${script}`,
    stop: async () => void (await runLocalScript(script, ['stop', url], 60_000)),
    stopSync: () => runLocalScriptSync(script, ['stop', url]),
  };
};

const stopAll = async (started: StartedBackend[]): Promise<void> => {
  const stopping = started.splice(0);
  const results = await Promise.allSettled(stopping.map((backend) => backend.stop()));
  results.forEach((result, i) => {
    if (result.status === 'rejected') console.error(`[backends] stopping ${stopping[i]?.source} failed: ${firstLine(result.reason)}`);
  });
};

const parseList = (value: string | undefined, fallback: BackendName[]): BackendName[] => {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim() === 'none') return [];
  return value.split(',').map((s) => s.trim()).filter(Boolean) as BackendName[];
};

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
