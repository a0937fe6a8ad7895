import http from 'node:http';
import { eventually, sleep } from '@pubstream/testing';
import { openFailoverStreams, startFailoverPoller, type Attempt, type FailoverClients } from '../failoverClients.js';
import { probe, type ProbeResult } from '../httpProbe.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey } from './finalReads.js';

// An API node leaves under its clients (SIGTERM: a drain; SIGKILL: a crash). 200 streams that
// reconnect as EventSource does and keep-alive pollers share one keep-alive pool (as a browser's
// streams and fetches do); a connection error or a 503 sends a request to the other node, as a
// load balancer would. Shared by apiDrain.ts and apiKilled.ts.

export const STREAMS = 200;
const WINDOW_MS = 5_000;
const POLLERS = 4;
const EXIT_WAIT_MS = 15_000;

/** What happened after the signal; times in ms since it. */
export interface LeaveFigures {
  readonly streamsBefore: number;
  readonly unready: ProbeResult | undefined;
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

/** Signals node 0 under the clients, with a request in flight (its body still on the way); returns what happened after. */
const signalUnderClients = async (leaving: { url: string; child: { kill(signal: NodeJS.Signals): boolean }; exited: Promise<number | string> }, signal: NodeJS.Signals, key: string, agent: http.Agent, streams: FailoverClients, clients: FailoverClients[]): Promise<Omit<LeaveFigures, 'streamsBefore'>> => {
  const readiness = watchReadiness(leaving.url, agent);
  await sleep(500);
  const inFlight = probe(`${leaving.url}/public/batch`, { method: 'POST', agent, timeoutMs: 5_000, headers: { 'X-API-Key': key, 'content-type': 'application/json' }, body: JSON.stringify({ dataIds: ['counter'] }), bodyDelayMs: 300 });
  await sleep(100);
  const signalledAt = performance.now();
  leaving.child.kill(signal);
  const exitCode = await Promise.race([leaving.exited, sleep(EXIT_WAIT_MS).then(() => null)]);
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

/** Two API nodes, the clients on node 0, then `signal` to node 0. */
export const apiNodeLeaves = (brokers: string, signal: NodeJS.Signals): Promise<LeaveFigures> =>
  withChaosCluster({ brokers, apis: 2, projectors: 1, env: { SHUTDOWN_RECONNECT_WINDOW_MS: String(WINDOW_MS) } }, async ({ cluster }) => {
    await cluster.adminApi('PUT', '/admin/plan', { plan: 'business', monthlyQuota: null });
    await cluster.adminApi('POST', '/admin/collections', { slug: 'live', name: 'Live' });
    await cluster.adminApi('PUT', '/admin/collections/live/items/counter', { data: { n: 0 } });
    const key = await createReaderKey(cluster, 'leave');
    const nodes = cluster.apis.map((node) => node.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    const streams = await openFailoverStreams({ nodes, path: `/subscribe?apiKey=${key}&dataIds=counter`, count: STREAMS, agent, defaultRetryMs: 3_000 });
    // Several pollers, back to back: at the signal one of them is in the middle of a request.
    const pollers = Array.from({ length: POLLERS }, () => startFailoverPoller({ nodes, path: '/public/data/counter', headers: { 'X-API-Key': key }, agent, everyMs: 5 }));
    try {
      const streamsBefore = streams.openOn(0);
      return { streamsBefore, ...(await signalUnderClients(cluster.apis[0]!, signal, key, agent, streams, [streams, ...pollers])) };
    } finally {
      streams.close();
      for (const poller of pollers) poller.close();
      agent.destroy();
    }
  });

/** How many attempts after the signal match. */
export const countAttempts = (figures: LeaveFigures, predicate: (attempt: Attempt) => boolean): number => figures.attempts.filter(predicate).length;
