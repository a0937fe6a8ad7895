import { apiNodeLeaves, countAttempts, STREAMS, type LeaveFigures } from './apiNodeLeaves.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, finding 4: a node that is only leaving must not look like an outage. SIGTERM to the
// API node the clients are on: /readyz 503 (or refused) within 0.5 s, no 503 later than 1 s after
// the signal (reconnections land on the other node), the node exits within 10 s; the request in
// flight finishes with Connection: close.

const UNREADY_WITHIN_MS = 500;
const NO_503_AFTER_MS = 1_000;
const EXIT_WITHIN_MS = 10_000;

const report = (figures: LeaveFigures): { line: string; problems: string[] } => {
  const late503 = figures.attempts.filter((attempt) => attempt.status === 503 && attempt.at > NO_503_AFTER_MS);
  const line =
    `/readyz ${figures.unready?.status ?? figures.unready?.error ?? 'never unready'} within ${figures.unreadyMs === null ? '-' : `${Math.round(figures.unreadyMs)} ms`} of SIGTERM; exit ${figures.exitCode} after ${seconds(figures.exitedAfterMs)}; ` +
    `${countAttempts(figures, (a) => a.status === 503)} × 503 after the signal (${late503.length} later than 1 s), ${countAttempts(figures, (a) => a.status === null)} connection errors; ` +
    `${STREAMS} streams on the other node ${figures.movedAfterMs === null ? 'never' : `after ${seconds(figures.movedAfterMs)}`}; request in flight ${figures.inFlight.status ?? figures.inFlight.error} Connection: ${figures.inFlight.headers.connection}`;
  const problems = problemsOf([
    figures.streamsBefore !== STREAMS && `only ${figures.streamsBefore} of ${STREAMS} streams open before the signal`,
    (figures.unreadyMs === null || figures.unreadyMs > UNREADY_WITHIN_MS) && `/readyz not 503 or refused within ${UNREADY_WITHIN_MS} ms of SIGTERM`,
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
  run: async ({ brokers }) => ({ name: apiDrain.name, ...report(await apiNodeLeaves(brokers, 'SIGTERM')) }),
};
