import { apiNodeLeaves, countAttempts, STREAMS } from './apiNodeLeaves.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// An API node crashes (kill -9) under 200 EventSource-like streams and keep-alive pollers. Not a
// bound of issue 23, a figure for the failure-mode table (docs/operations.md): clients see
// connection errors only, never a 5xx, and every stream is on the other node after its
// reconnect hint (the server's `retry:`, 1–5 s) plus the balancer's failover: within 15 s.

const MOVED_WITHIN_MS = 15_000;

export const apiKilled: ChaosScenario = {
  name: 'api-kill-9',
  title: 'kill -9 of an API node under 200 EventSource-like streams and keep-alive pollers: connection errors only (no 5xx), every stream on the other node within 15 s',
  run: async ({ brokers }) => {
    const figures = await apiNodeLeaves(brokers, 'SIGKILL');
    const failed = figures.attempts.filter((a) => a.status !== null && a.status >= 500);
    const line =
      `${countAttempts(figures, (a) => a.status === null)} connection errors, ${failed.length} × 5xx after the kill; ` +
      `${STREAMS} streams on the other node ${figures.movedAfterMs === null ? 'never' : `after ${seconds(figures.movedAfterMs)}`}; request in flight: ${figures.inFlight.status ?? figures.inFlight.error}`;
    const problems = problemsOf([
      figures.streamsBefore !== STREAMS && `only ${figures.streamsBefore} of ${STREAMS} streams open before the kill`,
      ...failed.slice(0, 5).map((a) => `${a.kind} got ${a.status} on node ${a.node} at +${Math.round(a.at)} ms: ${a.body ?? ''}`),
      (figures.movedAfterMs === null || figures.movedAfterMs > MOVED_WITHIN_MS) && `the streams were not all on the other node within ${MOVED_WITHIN_MS} ms`,
    ]);
    return { name: apiKilled.name, line, problems };
  },
};
