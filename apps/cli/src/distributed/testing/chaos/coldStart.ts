import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, sleep, startLocalRedis, type LocalRedis } from '@pubstream/testing';
import { createClient } from 'redis';
import { ADMIN_TOKEN, adminHttp } from '../adminHttp.js';
import { clusterEnv } from '../distributedCluster.js';
import { startNodeProcess, type NodeProcess } from '../nodeProcess.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, finding 7: admin, two projectors and an API node started at the same moment on a log
// that does not exist yet, three times over: zero crashes (every process healthy and still
// running, no "database is locked"), and the first write is readable through the API node.
// Opening one new log from several processes in the same millisecond is the int test
// libs/event-store/src/sqliteColdStart.int.test.ts.

const ROUNDS = 3;
const ROLES = ['admin', 'projector', 'projector', 'api'] as const;

interface Round {
  readonly crashes: string[];
  readonly healthyMs: number;
  readonly readableMs: number | null;
}

const startAll = (env: Record<string, string>) =>
  Promise.allSettled(ROLES.map((role) => startNodeProcess(role, env, 60_000)));

/** One write through the admin, read through the API node; ms until it answered 200, null if never. */
const firstWriteReadable = async (admin: NodeProcess, api: NodeProcess): Promise<number | null> => {
  const started = Date.now();
  const adminApi = adminHttp(admin.url, ADMIN_TOKEN);
  try {
    await adminApi('POST', '/admin/collections', { slug: 'cold', name: 'Cold' });
    await adminApi('PUT', '/admin/collections/cold/items/first', { data: { n: 1 } });
    const { key } = await adminApi<{ key: string }>('POST', '/admin/keys', { name: 'cold', type: 'live' });
    return await eventually('the first write readable through the API node', async () => {
      const response = await fetch(`${api.url}/public/data/first`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(2_000) });
      await response.text();
      return response.status === 200 ? Date.now() - started : undefined;
    }, 20_000, 100);
  } catch {
    return null;
  }
};

const coldStartRound = async (redis: LocalRedis, brokers: string, round: number): Promise<Round> => {
  const dir = mkdtempSync(join(tmpdir(), 'pubstream-coldstart-'));
  const started = Date.now();
  const settled = await startAll(clusterEnv({ dir, redisUrl: redis.url, brokers }));
  const healthyMs = Date.now() - started;
  const nodes = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  try {
    const readableMs = nodes.length === ROLES.length ? await firstWriteReadable(nodes[0]!, nodes[3]!) : null;
    await sleep(500);
    const crashes = [
      ...settled.flatMap((result, i) => (result.status === 'rejected' ? [`round ${round} ${ROLES[i]}: ${String(result.reason).slice(0, 300)}`] : [])),
      ...nodes.filter((node) => !node.isRunning()).map((node) => `round ${round} ${node.role}: exited ${node.output().slice(-300)}`),
      ...nodes.filter((node) => /database is locked|SQLITE_BUSY/.test(node.output())).map((node) => `round ${round} ${node.role}: logged "database is locked"`),
    ];
    return { crashes, healthyMs, readableMs };
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
};

export const coldStart: ChaosScenario = {
  name: 'cold-start',
  title: 'admin, two projectors and an API node started at the same moment on a new log, three times: zero crashes, the first write readable',
  run: async ({ brokers }) => {
    const redis = await startLocalRedis();
    const flusher = createClient({ url: redis.url });
    await flusher.connect();
    const rounds: Round[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        await flusher.flushAll(); // a new log needs an empty read model
        rounds.push(await coldStartRound(redis, brokers, round));
      }
    } finally {
      await flusher.quit().catch(() => undefined);
      await redis.stop();
    }
    const crashes = rounds.flatMap((r) => r.crashes);
    const line = `${ROUNDS} rounds × ${ROLES.length} processes (admin, 2 projectors, API node) on a new log at once: ${crashes.length} crashes; all healthy after ${rounds.map((r) => seconds(r.healthyMs)).join(' / ')}; first write readable through the API node ${rounds.map((r) => (r.readableMs === null ? 'never' : seconds(r.readableMs))).join(' / ')} after it was sent`;
    return { name: coldStart.name, line, problems: problemsOf([...crashes, ...rounds.map((r, i) => r.readableMs === null && `round ${i + 1}: the first write never became readable through the API node`)]) };
  },
};
