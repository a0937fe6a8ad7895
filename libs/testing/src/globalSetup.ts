import type { TestProject } from 'vitest/node';
import type { BackendName, Backends } from './backends.js';
import { cleanupOnExit } from './cleanupOnExit.js';
import { detectContainerEngine } from './containerEngine.js';
import {
  defaultContainerImages,
  startEsdbContainer,
  startKafkaContainer,
  startRedisClusterContainer,
  startRedisContainer,
} from './containerBackends.js';
import { runLocalScript, runLocalScriptSync, type LocalScript } from './localScripts.js';
import type { StartedBackend } from './startedBackend.js';

/**
 * Vitest global setup: gives every test its backends, once per run, in parallel. For each backend,
 * in order: the URL from the environment; else a container when a container engine answers within
 * ~3 s (testcontainers); else a local process from infra/local/ (not for EventStoreDB: no server
 * package is reachable here); else the backend is skipped, and its suites print one line saying why.
 *
 * Knobs (environment): REDIS_URL, REDIS_CLUSTER_URLS, KAFKA_BROKERS, ESDB_CONNECTION_STRING;
 * PUBSTREAM_TEST_BACKENDS=redis,kafka (which to provide; default all, `none` for none);
 * PUBSTREAM_REQUIRE_BACKENDS=redis,kafka (fail the run instead of skipping these);
 * PUBSTREAM_NO_CONTAINERS=1 (never try testcontainers); REDIS_IMAGE, KAFKA_IMAGE, ESDB_IMAGE.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const all: BackendName[] = ['redis', 'redisCluster', 'kafka', 'esdb'];
  const wanted = parseList(env.PUBSTREAM_TEST_BACKENDS, all);
  const required = parseList(env.PUBSTREAM_REQUIRE_BACKENDS, []);
  const images = {
    redis: env.REDIS_IMAGE ?? defaultContainerImages.redis,
    kafka: env.KAFKA_IMAGE ?? defaultContainerImages.kafka,
    esdb: env.ESDB_IMAGE ?? defaultContainerImages.esdb,
  };

  // Asked at most once, and only when some backend is not given by the environment.
  let engine: ReturnType<typeof detectContainerEngine> | undefined;
  const containerEngine = () =>
    env.PUBSTREAM_NO_CONTAINERS ? Promise.resolve({ available: false as const, reason: 'containers disabled (PUBSTREAM_NO_CONTAINERS)' }) : (engine ??= detectContainerEngine());

  const sources: Record<BackendName, BackendSources> = {
    redis: {
      envVar: 'REDIS_URL',
      container: () => startRedisContainer(images.redis),
      local: () => startLocal('redis.sh', 120_000),
    },
    redisCluster: {
      envVar: 'REDIS_CLUSTER_URLS',
      container: () => startRedisClusterContainer(images.redis),
      local: () => startLocal('redis-cluster.sh', 120_000),
    },
    kafka: {
      envVar: 'KAFKA_BROKERS',
      container: () => startKafkaContainer(images.kafka),
      // The first run resolves the Kafka jars with Maven (cached afterwards); later runs take seconds.
      local: () => startLocal('kafka.sh', 900_000),
    },
    esdb: {
      envVar: 'ESDB_CONNECTION_STRING',
      container: () => startEsdbContainer(images.esdb),
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
    const engineState = await containerEngine();
    if (engineState.available) {
      try {
        const backend = await container();
        started.push(backend);
        return { backend, ms: Date.now() - t0 };
      } catch (error) {
        reasons.push(`container failed: ${firstLine(error)}`);
      }
    } else {
      reasons.push(engineState.reason);
    }
    if (!local) return { skipped: [...reasons, noLocal].join('; ') };
    try {
      const backend = await local();
      started.push(backend);
      return { backend, ms: Date.now() - t0 };
    } catch (error) {
      return { skipped: [...reasons, `local start failed: ${firstLine(error)}`].join('; ') };
    }
  };

  const outcomes = await Promise.all(all.map(async (name) => [name, await provideOne(name)] as const));
  const backends: Backends = { skipped: {} };
  for (const [name, outcome] of outcomes) {
    if ('backend' in outcome) {
      backends[name] = outcome.backend.url;
      console.log(`[backends] ${name.padEnd(12)} ${outcome.backend.url}  (from ${outcome.backend.source}, ${(outcome.ms / 1000).toFixed(1)} s)`);
    } else {
      backends.skipped[name] = outcome.skipped;
      console.log(`[backends] ${name.padEnd(12)} skipped: ${outcome.skipped}`);
    }
  }
  const missing = required.filter((name) => !backends[name]);
  if (missing.length > 0) {
    unregisterCleanup();
    await stopAll(started);
    throw new Error(`required backends unavailable (PUBSTREAM_REQUIRE_BACKENDS): ${missing.join(', ')}`);
  }
  project.provide('backends', backends);

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

type Outcome = { backend: StartedBackend; ms: number } | { skipped: string };

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
