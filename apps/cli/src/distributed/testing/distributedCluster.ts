import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, adminHttp } from './adminHttp.js';
import { startNodeProcess, type NodeProcess } from './nodeProcess.js';

/** Polls the admin's /readyz until its read model is caught up (60 s at most). */
const waitUntilCaughtUp = async (adminUrl: string): Promise<void> => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const report = await fetch(`${adminUrl}/readyz`)
      .then((response) => response.json() as Promise<{ checks?: { caughtUp?: string } }>)
      .catch(() => null);
    if (report?.checks?.caughtUp === 'ok') return;
    if (Date.now() > deadline) throw new Error(`the read model was not caught up within 60 s (admin /readyz: ${JSON.stringify(report)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** The environment of every process of a cluster: a new SQLite log in `dir`, a fresh topic. */
export const clusterEnv = (options: { readonly dir: string; readonly redisUrl: string; readonly brokers: string; readonly env?: Record<string, string> }): Record<string, string> => ({
  EVENT_STORE_URL: `sqlite:${join(options.dir, 'events.db')}`,
  REDIS_URL: options.redisUrl,
  KAFKA_BROKERS: options.brokers,
  KAFKA_TOPIC: `pubstream-e2e-${randomUUID()}`,
  ADMIN_TOKEN,
  PROJECTOR_LEASE_TTL_MS: '2000',
  ...options.env,
});

export interface DistributedCluster {
  readonly redisUrl: string;
  /** The environment every process of this cluster gets. */
  readonly env: Readonly<Record<string, string>>;
  readonly admin: NodeProcess;
  readonly apis: NodeProcess[];
  readonly projectors: NodeProcess[];
  /** Calls the admin API (throws on non-2xx). */
  readonly adminApi: ReturnType<typeof adminHttp>;
  /** Starts one more projector process (with extra env); resolves once it answers /healthz unless told not to wait. */
  startProjector(extraEnv?: Record<string, string>, waitUntilHealthy?: boolean): Promise<NodeProcess>;
  /** Stops every process (SIGTERM, then SIGKILL) and removes the log file. */
  stop(): Promise<void>;
}

/**
 * Real processes of the distributed profile for e2e tests: the given Redis, the Kafka broker with a
 * fresh topic, a SQLite log file shared by the admin (writer) and the projectors (readers).
 */
export const startDistributedCluster = async (options: {
  readonly brokers: string;
  readonly apis?: number;
  readonly projectors?: number;
  /** A Redis of the test's own (startLocalRedis), so that the test may kill it; the test stops it. */
  readonly redisUrl: string;
  readonly env?: Record<string, string>;
}): Promise<DistributedCluster> => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-distributed-'));
  const env = clusterEnv({ ...options, dir });
  const all: NodeProcess[] = [];
  const projectors: NodeProcess[] = [];
  const startProjector = async (extraEnv: Record<string, string> = {}, waitUntilHealthy = true) => {
    const projector = await startNodeProcess('projector', { ...env, ...extraEnv }, 60_000, waitUntilHealthy);
    all.push(projector);
    projectors.push(projector);
    return projector;
  };
  const stop = async () => {
    await Promise.all(all.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [admin, ...rest] = await Promise.all([
      startNodeProcess('admin', env),
      ...Array.from({ length: options.apis ?? 2 }, () => startNodeProcess('api', env)),
    ]);
    all.push(admin!, ...rest);
    for (let i = 0; i < (options.projectors ?? 1); i++) await startProjector();
    // Ready when the projector has marked the read model caught up: before that, misses are 503
    // and the admin's reads wait for it (docs/read-models.md, "Unknown is not missing").
    if (projectors.length > 0) await waitUntilCaughtUp(admin!.url);
    return { redisUrl: options.redisUrl, env, admin: admin!, apis: rest, projectors, adminApi: adminHttp(admin!.url, ADMIN_TOKEN), startProjector, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
