import { createRedisStores, type RedisReadModelClient } from '@pubstream/read-model';
import { eventually, sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import type { NodeProcess } from '../nodeProcess.js';
import { scrapeProjector } from '../projectorScrape.js';
import { differencesFromRebuild } from '../rebuildComparison.js';
import { startWriteLoad, type WriteLoad } from '../writeLoad.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey, finalReadProblems } from './finalReads.js';
import { problemsOf, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23: how fast a standby projector takes over (default lease TTL) while writes flow at
// 10/s. kill -9 of the active one: the standby applies new writes within 3 s (the lease's TTL
// plus one standby poll). SIGTERM: the lease is released at once and the standby applies within
// 1 s. Nothing skipped: the read model equals a fresh rebuild of the log.

const ITEMS = Array.from({ length: 10 }, (_, i) => `t${i}`);
const AFTER_KILL_WITHIN_MS = 3_000;
const AFTER_TERM_WITHIN_MS = 1_000;

/** The one active projector among `nodes` when the others all report standby. */
const activeOf = async (nodes: readonly NodeProcess[]): Promise<NodeProcess | undefined> => {
  const readings = await Promise.all(nodes.map((node) => scrapeProjector(node.url)));
  const active = nodes.filter((_, i) => readings[i]?.active === true);
  const standing = nodes.filter((_, i) => readings[i]?.active === false);
  return active.length === 1 && standing.length === nodes.length - 1 ? active[0] : undefined;
};

/** ms from `signalAt` until the first write sent after it is in the read model. */
const appliedAfter = async (client: RedisReadModelClient, load: WriteLoad, signalAt: number): Promise<number> => {
  const live = createRedisStores(client);
  const write = await eventually('a write after the signal', async () => load.writes.find((w) => w.sentAt > signalAt), 5_000, 5);
  return eventually(
    `write n=${write.n} to be applied`,
    async () => {
      const item = await live.readModel.getItem(write.dataId);
      return typeof item?.data.n === 'number' && item.data.n >= write.n ? Date.now() - signalAt : undefined;
    },
    20_000,
    20,
  ).catch(() => Infinity);
};

export const projectorTakeover: ChaosScenario = {
  name: 'projector-takeover',
  title: 'kill -9 of the active projector under 10 writes/s: the standby applies within 3 s; SIGTERM: within 1 s, the lease released; nothing skipped',
  run: ({ brokers }) =>
    // No PROJECTOR_LEASE_TTL_MS here: the default is what is measured.
    withChaosCluster({ brokers, apis: 2, projectors: 2, env: { PROJECTOR_LEASE_TTL_MS: '' } }, async ({ cluster, client }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'take', name: 'Takeover' });
      const key = await createReaderKey(cluster);
      const load = startWriteLoad({ adminUrl: cluster.admin.url, token: ADMIN_TOKEN, collection: 'take', dataIds: ITEMS, perSecond: 10 });
      try {
        const first = await eventually('one active projector and one standby', () => activeOf(cluster.projectors), 30_000, 100);
        const standby = cluster.projectors.find((node) => node !== first)!;
        await sleep(1_000);
        const killedAt = Date.now();
        await first.kill();
        const afterKillMs = await appliedAfter(client, load, killedAt);
        const standbyActive = (await activeOf([standby])) === standby;

        const next = await cluster.startProjector();
        await eventually('the new projector to stand by', () => activeOf([standby, next]), 30_000, 100);
        await sleep(1_000);
        const signalledAt = Date.now();
        standby.child.kill('SIGTERM');
        const afterTermMs = await appliedAfter(client, load, signalledAt);
        const exitCode = await standby.exited;
        await load.stop();

        const refused = load.writes.filter((w) => w.status === null || w.status >= 300);
        const differences = await differencesFromRebuild(cluster.env.EVENT_STORE_URL!, client);
        const line = `kill -9: the standby applied ${afterKillMs} ms after the kill; SIGTERM: ${afterTermMs} ms after the signal (exit ${exitCode}); ${load.writes.length} writes, ${refused.length} not 2xx; ${differences.length} differences from a rebuild`;
        const problems = problemsOf([
          afterKillMs > AFTER_KILL_WITHIN_MS && `kill -9: the standby applied after ${afterKillMs} ms`,
          !standbyActive && 'the standby did not report itself active after the kill',
          afterTermMs > AFTER_TERM_WITHIN_MS && `SIGTERM: the standby applied after ${afterTermMs} ms`,
          exitCode !== 0 && `SIGTERM: exit ${exitCode}`,
          !standby.output().includes('projector lease released') && 'SIGTERM: no "projector lease released" in its log',
          ...refused.slice(0, 3).map((w) => `write n=${w.n}: ${w.status ?? w.error}`),
          ...differences.slice(0, 5).map((d) => `read model differs from a rebuild: ${JSON.stringify(d)}`),
          ...(await finalReadProblems({ cluster, key, writes: load.writes })),
        ]);
        return { name: projectorTakeover.name, line, problems };
      } finally {
        await load.stop();
      }
    }),
};
