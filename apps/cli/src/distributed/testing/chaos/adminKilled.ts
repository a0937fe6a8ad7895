import { eventually, sleep } from '@pubstream/testing';
import { startNodeProcess } from '../nodeProcess.js';
import { startSteadyReaders, statusCounts } from '../steadyReaders.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey } from './finalReads.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';
import { followStream } from './sseFollower.js';

// The admin crashes (kill -9) and is started again. Not a bound of issue 23, figures for the
// failure-mode table (docs/operations.md): public reads and open streams do not notice; writes are
// refused (connection refused) until the new admin answers, and the first write after it reaches
// the open subscriber.

export const adminKilled: ChaosScenario = {
  name: 'admin-kill-9',
  title: 'kill -9 of the admin under reads and an open stream: reads all 200, the stream stays open, a restarted admin takes writes that reach the subscriber',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 1, projectors: 1 }, async ({ cluster }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'adm', name: 'Admin' });
      await cluster.adminApi('PUT', '/admin/collections/adm/items/a', { data: { n: 0 } });
      const key = await createReaderKey(cluster);
      const api = cluster.apis[0]!;
      const follower = followStream(`${api.url}/subscribe?apiKey=${key}&dataIds=a`);
      const readers = startSteadyReaders([{ name: 'api', url: `${api.url}/public/data/a`, headers: { 'X-API-Key': key } }], { concurrency: 2, pauseMs: 20, timeoutMs: 5_000 });
      try {
        await eventually('the snapshot', async () => (follower.latest.get('a') === 0 ? true : undefined), 20_000);
        await cluster.admin.kill();
        const killedAt = Date.now();
        await sleep(2_000);
        const admin = await startNodeProcess('admin', cluster.env);
        try {
          const restartedMs = Date.now() - killedAt;
          const response = await fetch(`${admin.url}/admin/collections/adm/items/a`, { method: 'PUT', headers: { authorization: `Bearer ${cluster.env.ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { n: 1 } }) });
          await response.text();
          const sentAt = Date.now();
          const deliveredMs = await eventually('the write on the stream', async () => (follower.latest.get('a') === 1 ? Date.now() - sentAt : undefined), 15_000, 20).catch(() => null);
          await readers.stop();
          const reads = statusCounts(readers.records);
          const line = `reads during and after ${JSON.stringify(reads)}; the stream opened ${follower.opens()} time(s); a new admin answered ${seconds(restartedMs)} after the kill (2 s down, then its start), its first write ${response.status}, on the open stream ${deliveredMs === null ? 'never' : `${deliveredMs} ms`} after its answer`;
          const problems = problemsOf([
            ...readers.records.filter((r) => r.status !== 200).slice(0, 5).map((r) => `read: ${r.status ?? r.error} ${r.body.slice(0, 120)}`),
            follower.opens() !== 1 && `the stream was opened ${follower.opens()} times: it did not stay open`,
            response.status >= 300 && `first write after the restart: ${response.status}`,
            deliveredMs === null && 'the first write after the restart never reached the open stream',
          ]);
          return { name: adminKilled.name, line, problems };
        } finally {
          await admin.stop();
        }
      } finally {
        follower.close();
        await readers.stop();
      }
    }),
};
