import { eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import type { DistributedCluster } from '../distributedCluster.js';
import { seedFaultScenario, type FaultSeed } from '../faultSeed.js';
import { isHonest503, probe, type ProbeResult } from '../httpProbe.js';
import { redisFaults } from '../redisFaults.js';
import { statusCounts } from '../steadyReaders.js';
import { withChaosCluster } from './chaosCluster.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, "Redis frozen 10 s": SIGSTOP on the private redis-server; every GET item, /subscribe
// and /readyz on each API node (and the admin's /readyz and a read) answers within 2.5 s, 503
// JSON with Retry-After or a correct 200; reads are 200 again within 5 s of the thaw.

const FREEZE_MS = 10_000;
const ANSWER_WITHIN_MS = 2_500;
const RECOVER_WITHIN_MS = 5_000;

interface Probed {
  readonly what: string;
  readonly result: ProbeResult;
}

const itemUrl = (node: string, seed: FaultSeed) => `${node}/public/data/${seed.dataId}`;

/** Item, stream and readiness on each API node; readiness and a read on the admin. */
const probeEverything = (cluster: DistributedCluster, seed: FaultSeed): Promise<Probed[]> => {
  const options = { timeoutMs: 6_000 };
  const api = cluster.apis.flatMap((node, index) => [
    { what: `api${index} item`, request: probe(itemUrl(node.url, seed), { ...options, headers: { 'X-API-Key': seed.key } }) },
    { what: `api${index} subscribe`, request: probe(`${node.url}/subscribe?apiKey=${seed.key}&dataIds=${seed.dataId}`, options) },
    { what: `api${index} readyz`, request: probe(`${node.url}/readyz`, options) },
  ]);
  const admin = [
    { what: 'admin readyz', request: probe(`${cluster.admin.url}/readyz`, options) },
    { what: 'admin collection', request: probe(`${cluster.admin.url}/admin/collections/${seed.slug}`, { ...options, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }) },
  ];
  return Promise.all([...api, ...admin].map(async ({ what, request }) => ({ what, result: await request })));
};

/** A fast, honest answer: 503 JSON with Retry-After, or (not for readiness) a correct 200. */
const judge = ({ what, result }: Probed, seed: FaultSeed): string | null => {
  if (result.ms > ANSWER_WITHIN_MS) return `${what}: answered after ${Math.round(result.ms)} ms (${result.status ?? result.error}), more than ${ANSWER_WITHIN_MS} ms`;
  if (isHonest503(result)) return null;
  if (result.status === 200 && !what.endsWith('readyz')) {
    if (what.endsWith('item') && (JSON.parse(result.body) as { data?: { n?: unknown } }).data?.n !== seed.data.n) return `${what}: 200 with a wrong body ${result.body}`;
    return null;
  }
  return `${what}: ${result.status ?? result.error} ${result.body.slice(0, 200)}`;
};

/** Freezes Redis for FREEZE_MS, probing three times; returns the probes and how long after the thaw each read was 200. */
const freezeAndProbe = async (cluster: DistributedCluster, redisUrl: string, seed: FaultSeed): Promise<{ probes: Probed[]; recoveredMs: number[] }> => {
  const faults = await redisFaults(redisUrl);
  const rounds: Probed[][] = [];
  try {
    faults.freeze();
    const frozenAt = performance.now();
    for (const offset of [300, 4_000, 7_500]) {
      await sleep(Math.max(0, frozenAt + offset - performance.now()));
      rounds.push(await probeEverything(cluster, seed));
    }
    await sleep(Math.max(0, frozenAt + FREEZE_MS - performance.now()));
  } finally {
    await faults.close();
  }
  const thawedAt = performance.now();
  const okAfterThaw = (url: string, headers: Record<string, string>) =>
    eventually('a 200 after the thaw', async () => ((await probe(url, { timeoutMs: 2_000, headers })).status === 200 ? performance.now() - thawedAt : undefined), 15_000, 50).catch(() => Infinity);
  const recoveredMs = await Promise.all([
    ...cluster.apis.map((node) => okAfterThaw(itemUrl(node.url, seed), { 'X-API-Key': seed.key })),
    okAfterThaw(`${cluster.admin.url}/admin/collections/${seed.slug}`, { authorization: `Bearer ${ADMIN_TOKEN}` }),
  ]);
  return { probes: rounds.flat(), recoveredMs };
};

export const redisFrozen: ChaosScenario = {
  name: 'redis-frozen-10s',
  title: 'Redis frozen 10 s (SIGSTOP): GET item, /subscribe and /readyz on each node answer within 2.5 s (503 JSON + Retry-After, or a correct 200), reads 200 again within 5 s of the thaw',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 1 }, async ({ cluster, redis }) => {
      const seed = await seedFaultScenario(cluster, 100);
      const before = await Promise.all(cluster.apis.map((node) => probe(itemUrl(node.url, seed), { timeoutMs: 5_000, headers: { 'X-API-Key': seed.key } })));
      const { probes, recoveredMs } = await freezeAndProbe(cluster, redis.url, seed);
      const slowest = Math.max(...probes.map(({ result }) => result.ms));
      const line =
        `${probes.length} probes (${JSON.stringify(statusCounts(probes.map((p) => p.result)))}), slowest ${seconds(slowest)}; ` +
        `reads 200 again ${recoveredMs.map((ms) => `${Math.round(ms)} ms`).join(' / ')} after the thaw (api0 / api1 / admin)`;
      const problems = problemsOf([
        ...before.map((result, i) => result.status !== 200 && `api${i} item before the freeze: ${result.status ?? result.error}`),
        ...probes.map((probed) => judge(probed, seed)),
        ...recoveredMs.map((ms, i) => ms > RECOVER_WITHIN_MS && `read ${i} not 200 within ${RECOVER_WITHIN_MS} ms of the thaw (${ms} ms)`),
      ]);
      return { name: redisFrozen.name, line, problems };
    }),
};
