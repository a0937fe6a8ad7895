import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@pubstream/testing';
import { startChild, type RunningChild } from './childProcess.js';

export interface BenchService {
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** The process that serves the public API (for RSS). */
  readonly api: RunningChild;
  stop(): Promise<void>;
}

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const CLI = 'apps/cli/src/main.ts';

/** A fresh data directory, two free loopback ports, and the environment every bench process shares. */
const prepare = async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pubstream-bench-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    ADMIN_TOKEN,
    DATA_DIR: dataDir,
    EVENT_STORE_URL: `sqlite:${dataDir}/events.db`,
    LOG_LEVEL: 'warn',
    // One public API process unless a scenario asks for workers (workersScenario.ts): the rows
    // keep measuring what they measured before API_WORKERS, whose default is one per core.
    API_WORKERS: '1',
    // The load generator opens thousands of connections and streams from one address.
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    MAX_STREAMS_PER_ADDRESS: '0',
  };
  const service = (api: RunningChild, stopProcesses: () => Promise<unknown>): BenchService => ({
    publicUrl: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    adminToken: ADMIN_TOKEN,
    api,
    stop: async () => {
      await stopProcesses();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  return { port, adminPort, env, service };
};

/** `pubstream start` (embedded profile) as its own process, on free loopback ports. */
export const startEmbeddedService = async (extraEnv: NodeJS.ProcessEnv = {}): Promise<BenchService> => {
  const { env, service } = await prepare();
  const api = await startChild(CLI, ['start', '--no-demo'], { env: { ...env, ...extraEnv }, ready: /public API\s+(http\S+)/, timeoutMs: 120_000 });
  return service(api, () => api.stop());
};

/**
 * The distributed profile on one machine: an admin, a projector and an API process sharing a
 * SQLite log file, Redis read models and rate limits, and a Kafka change stream.
 */
export const startDistributedService = async (redisUrl: string, kafkaBrokers: string): Promise<BenchService> => {
  const { port, adminPort, env: shared, service } = await prepare();
  // The projector's probe port too: its default (8082) may be taken by another process on the machine.
  const env: NodeJS.ProcessEnv = { ...shared, ADMIN_HOST: '127.0.0.1', REDIS_URL: redisUrl, KAFKA_BROKERS: kafkaBrokers, PROJECTOR_PORT: String(await freePort()) };
  const projector = await startChild(CLI, ['projector'], { env: { ...env, LOG_LEVEL: 'info' }, ready: /projector active/, timeoutMs: 120_000 });
  const admin = await startChild(CLI, ['admin'], { env, ready: { healthUrl: `http://127.0.0.1:${adminPort}/healthz` }, timeoutMs: 120_000 });
  const api = await startChild(CLI, ['api'], { env, ready: { healthUrl: `http://127.0.0.1:${port}/healthz` }, timeoutMs: 120_000 });
  return service(api, () => Promise.all([api.stop(), admin.stop(), projector.stop()]));
};
