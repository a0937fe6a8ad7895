import http from 'node:http';
import { expect, it } from 'vitest';
import { describeWithBackend, eventually, sleep } from '@pubstream/testing';
import { openFailoverStreams, startFailoverPoller, type Attempt } from '../../apps/cli/src/distributed/testing/failoverClients.js';
import { probe, type ProbeResult } from '../../apps/cli/src/distributed/testing/httpProbe.js';
import { usePrivateRedisCluster } from './support/privateRedisCluster.js';

// Issue 23, finding 4: a node that is only leaving must not look like an outage. Two API nodes;
// 200 streams that reconnect as EventSource does and keep-alive pollers share one keep-alive pool (as a
// browser's streams and fetches do); a connection error or a 503 sends a request to the other
// node, as a load balancer would. SIGTERM to the node they are on.

const STREAMS = 200;
const WINDOW_MS = 5_000;
const POLLERS = 4;

describeWithBackend('kafka', 'faults: SIGTERM to an API node with streams and a keep-alive poller', (brokers) => {
  const setup = usePrivateRedisCluster(brokers, { apis: 2, projectors: 1, env: { SHUTDOWN_RECONNECT_WINDOW_MS: String(WINDOW_MS) } });

  it(`readiness fails at once, no client sees a 503 after the first second, the ${STREAMS} streams move to the other node and the node exits within 10 s`, async () => {
    const { cluster } = setup;
    await cluster.adminApi('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
    await cluster.adminApi('POST', '/admin/collections', { slug: 'live', name: 'Live' });
    await cluster.adminApi('PUT', '/admin/collections/live/items/counter', { data: { n: 0 } });
    const { key } = await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name: 'drain', type: 'live', rateLimit: 50_000 });
    const [leaving, staying] = cluster.apis;
    const nodes = [leaving!.url, staying!.url];

    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    const streams = await openFailoverStreams({ nodes, path: `/subscribe?apiKey=${key}&dataIds=counter`, count: STREAMS, agent, defaultRetryMs: 3_000 });
    // Several pollers, back to back: at the signal one of them is in the middle of a request.
    const pollers = Array.from({ length: POLLERS }, () => startFailoverPoller({ nodes, path: '/public/data/counter', headers: { 'X-API-Key': key }, agent, everyMs: 5 }));
    const readiness: ProbeResult[] = [];
    let watching = true;
    const watchReadiness = (async () => {
      while (watching) {
        readiness.push(await probe(`${leaving!.url}/readyz`, { timeoutMs: 2_000, agent }));
        await sleep(50);
      }
    })();
    try {
      await sleep(500);
      expect(streams.openOn(0)).toBe(STREAMS);

      // A request in flight at the signal (its body still on the way), on the shared pool.
      const inFlight = probe(`${leaving!.url}/public/batch`, {
        method: 'POST',
        agent,
        timeoutMs: 5_000,
        headers: { 'X-API-Key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ dataIds: ['counter'] }),
        bodyDelayMs: 300,
      });
      await sleep(100);
      const signalledAt = performance.now();
      leaving!.child.kill('SIGTERM');
      const exitCode = await leaving!.exited;
      const exitedAfterMs = performance.now() - signalledAt;
      await eventually('every stream on the other node', async () => (streams.openOn(1) === STREAMS ? true : undefined), WINDOW_MS + 15_000, 100);
      watching = false;
      await watchReadiness;

      const attempts: Attempt[] = [...streams.attempts, ...pollers.flatMap((poller) => poller.attempts)].filter((attempt) => attempt.at >= signalledAt);
      const unready = readiness.find((result) => result.sentAt >= signalledAt && result.status !== 200);
      const late503 = attempts.filter((attempt) => attempt.status === 503 && attempt.at > signalledAt + 1_000);
      const count = (predicate: (attempt: Attempt) => boolean) => attempts.filter(predicate).length;
      console.log(
        `api drain: readiness ${unready?.status ?? unready?.error} ${unready ? Math.round(unready.sentAt + unready.ms - signalledAt) : '-'} ms after SIGTERM; ` +
          `exit ${exitCode} after ${Math.round(exitedAfterMs)} ms; after the signal: ${count((a) => a.status === 503)} × 503 (${late503.length} later than 1 s), ` +
          `${count((a) => a.status === null)} connection errors, ${count((a) => a.node === 1 && a.status === 200)} × 200 from the other node`,
      );
      // The request in flight finished, and its connection closes with it.
      const finished = await inFlight;
      expect.soft(finished.status).toBe(200);
      expect.soft(finished.headers.connection).toBe('close');
      expect.soft(unready).toBeDefined();
      expect.soft(unready!.sentAt + unready!.ms - signalledAt).toBeLessThan(500);
      expect.soft(late503.slice(0, 5).map((attempt) => `${attempt.kind} on node ${attempt.node} at +${Math.round(attempt.at - signalledAt)} ms`)).toEqual([]);
      expect.soft(exitCode).toBe(0);
      expect.soft(exitedAfterMs).toBeLessThan(10_000);
    } finally {
      watching = false;
      streams.close();
      for (const poller of pollers) poller.close();
      agent.destroy();
    }
  }, 120_000);
});
