import http from 'node:http';
import { eventually, sleep } from '@pubstream/testing';
import type { DistributedCluster } from '../distributedCluster.js';
import { openFailoverStreams, startFailoverPoller, type Attempt, type FailoverClients } from '../failoverClients.js';
import { probe, type ProbeResult } from '../httpProbe.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey } from './finalReads.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, finding 4: a node that is only leaving must not look like an outage. 200 streams that
// reconnect as EventSource does and keep-alive pollers share one keep-alive pool (as a browser's
// streams and fetches do); a connection error or a 503 sends a request to the other node, as a
// load balancer would. SIGTERM to the node they are on: /readyz 503 (or refused) within 0.5 s, no
// 503 later than 1 s after the signal, the node exits within 10 s.

const STREAMS = 200;
const WINDOW_MS = 5_000;
const POLLERS = 4;
const UNREADY_WITHIN_MS = 500;
const NO_503_AFTER_MS = 1_000;
const EXIT_WITHIN_MS = 10_000;

interface DrainFigures {
  readonly unready: ProbeResult | undefined;
  /** ms from the signal until the first /readyz that was not 200 had its answer (or refusal). */
  readonly unreadyMs: number | null;
  readonly exitCode: number | string | null;
  readonly exitedAfterMs: number;
  readonly movedAfterMs: number | null;
  readonly attempts: Attempt[];
  readonly inFlight: ProbeResult;
}

/** Watches the leaving node's /readyz every 50 ms until `stop()`. */
const watchReadiness = (url: string, agent: http.Agent) => {
  const results: ProbeResult[] = [];
  let watching = true;
  const loop = (async () => {
    while (watching) {
      results.push(await probe(`${url}/readyz`, { timeoutMs: 2_000, agent }));
      await sleep(50);
    }
  })();
  return { results, stop: async () => ((watching = false), await loop) };
};

/** SIGTERMs api node 0 under the clients, with a request in flight; returns what happened after the signal. */
const signalUnderClients = async (cluster: DistributedCluster, key: string, agent: http.Agent, clients: FailoverClients[], streams: FailoverClients): Promise<DrainFigures> => {
  const leaving = cluster.apis[0]!;
  const readiness = watchReadiness(leaving.url, agent);
  await sleep(500);
  // A request in flight at the signal (its body still on the way), on the shared pool.
  const inFlight = probe(`${leaving.url}/public/batch`, {
    method: 'POST',
    agent,
    timeoutMs: 5_000,
    headers: { 'X-API-Key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ dataIds: ['counter'] }),
    bodyDelayMs: 300,
  });
  await sleep(100);
  const signalledAt = performance.now();
  leaving.child.kill('SIGTERM');
  const exitCode = await Promise.race([leaving.exited, sleep(EXIT_WITHIN_MS + 5_000).then(() => null)]);
  const exitedAfterMs = performance.now() - signalledAt;
  const movedAfterMs = await eventually('every stream on the other node', async () => (streams.openOn(1) === STREAMS ? performance.now() - signalledAt : undefined), WINDOW_MS + 15_000, 50).catch(() => null);
  await readiness.stop();
  const unready = readiness.results.find((result) => result.sentAt >= signalledAt && result.status !== 200);
  return {
    unready,
    unreadyMs: unready ? unready.sentAt + unready.ms - signalledAt : null,
    exitCode,
    exitedAfterMs,
    movedAfterMs,
    attempts: clients.flatMap((client) => client.attempts).filter((attempt) => attempt.at >= signalledAt).map((attempt) => ({ ...attempt, at: attempt.at - signalledAt })),
    inFlight: await inFlight,
  };
};

const report = (figures: DrainFigures): { line: string; problems: string[] } => {
  const unreadyMs = figures.unreadyMs;
  const count = (predicate: (attempt: Attempt) => boolean) => figures.attempts.filter(predicate).length;
  const late503 = figures.attempts.filter((attempt) => attempt.status === 503 && attempt.at > NO_503_AFTER_MS);
  const line =
    `/readyz ${figures.unready?.status ?? figures.unready?.error ?? 'never unready'} within ${unreadyMs === null ? '-' : `${Math.round(unreadyMs)} ms`} of SIGTERM; exit ${figures.exitCode} after ${seconds(figures.exitedAfterMs)}; ` +
    `${count((a) => a.status === 503)} × 503 after the signal (${late503.length} later than 1 s), ${count((a) => a.status === null)} connection errors; ` +
    `${STREAMS} streams on the other node ${figures.movedAfterMs === null ? 'never' : `after ${seconds(figures.movedAfterMs)}`}; request in flight ${figures.inFlight.status} Connection: ${figures.inFlight.headers.connection}`;
  const problems = problemsOf([
    (unreadyMs === null || unreadyMs > UNREADY_WITHIN_MS) && `/readyz not 503 or refused within ${UNREADY_WITHIN_MS} ms of SIGTERM`,
    ...late503.slice(0, 5).map((attempt) => `${attempt.kind} got 503 on node ${attempt.node} at +${Math.round(attempt.at)} ms: ${attempt.body ?? ''}`),
    figures.exitCode !== 0 && `exit code ${figures.exitCode}`,
    figures.exitedAfterMs > EXIT_WITHIN_MS && `exited after ${Math.round(figures.exitedAfterMs)} ms`,
    figures.movedAfterMs === null && `the streams did not all reconnect to the other node`,
    (figures.inFlight.status !== 200 || figures.inFlight.headers.connection !== 'close') && `request in flight: ${figures.inFlight.status ?? figures.inFlight.error}, Connection: ${figures.inFlight.headers.connection}`,
  ]);
  return { line, problems };
};

export const apiDrain: ChaosScenario = {
  name: 'api-sigterm-drain',
  title: 'SIGTERM to an API node with 200 EventSource-like streams and keep-alive pollers: /readyz 503 or refused within 0.5 s, no 503 later than 1 s after the signal, exit within 10 s',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 1, env: { SHUTDOWN_RECONNECT_WINDOW_MS: String(WINDOW_MS) } }, async ({ cluster }) => {
      await cluster.adminApi('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
      await cluster.adminApi('POST', '/admin/collections', { slug: 'live', name: 'Live' });
      await cluster.adminApi('PUT', '/admin/collections/live/items/counter', { data: { n: 0 } });
      const key = await createReaderKey(cluster, 'drain');
      const nodes = cluster.apis.map((node) => node.url);
      const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
      const streams = await openFailoverStreams({ nodes, path: `/subscribe?apiKey=${key}&dataIds=counter`, count: STREAMS, agent, defaultRetryMs: 3_000 });
      // Several pollers, back to back: at the signal one of them is in the middle of a request.
      const pollers = Array.from({ length: POLLERS }, () => startFailoverPoller({ nodes, path: '/public/data/counter', headers: { 'X-API-Key': key }, agent, everyMs: 5 }));
      try {
        const opened = streams.openOn(0);
        const { line, problems } = report(await signalUnderClients(cluster, key, agent, [streams, ...pollers], streams));
        return { name: apiDrain.name, line, problems: opened === STREAMS ? problems : [`only ${opened} of ${STREAMS} streams open before the signal`, ...problems] };
      } finally {
        streams.close();
        for (const poller of pollers) poller.close();
        agent.destroy();
      }
    }),
};
