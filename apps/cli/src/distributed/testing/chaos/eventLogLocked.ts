import Database from 'better-sqlite3';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import { isHonest503, probe, type ProbeResult } from '../httpProbe.js';
import { startSteadyReaders, statusCounts } from '../steadyReaders.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey, finalReadProblems } from './finalReads.js';
import { problemsOf, seconds, type ChaosScenario } from './scenarioOutcome.js';

// The event log frozen for writers: another process holds the SQLite write lock (BEGIN IMMEDIATE)
// for 6 s. Not a bound of issue 23, figures for the failure-mode table (docs/operations.md):
// admin writes answer 503 JSON with Retry-After ("nothing was written") instead of hanging, reads
// on both API nodes stay 200, and the same writes retried with their Idempotency-Key after the
// release succeed, each once.

const LOCK_MS = 6_000;
const WRITES = 3;
/** "Never a hang": the lock wait is 2 s (docs/operations.md, Timeouts); this only catches a hang. */
const ANSWER_WITHIN_MS = 5_000;

const put = (adminUrl: string, n: number): Promise<ProbeResult> =>
  probe(`${adminUrl}/admin/collections/locked/items/l${n}`, {
    method: 'PUT',
    timeoutMs: 15_000,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': `locked-${n}` },
    body: JSON.stringify({ data: { n } }),
  });

/** Holds the log's write lock for LOCK_MS while `during` runs; returns its result and when the lock was released. */
const holdingWriteLock = async <T>(file: string, during: () => Promise<T>): Promise<{ result: T; releasedAt: number }> => {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.exec('BEGIN IMMEDIATE');
  const lockedAt = performance.now();
  try {
    const result = await during();
    await sleep(Math.max(0, lockedAt + LOCK_MS - performance.now()));
    return { result, releasedAt: performance.now() };
  } finally {
    db.exec('ROLLBACK');
    db.close();
  }
};

export const eventLogLocked: ChaosScenario = {
  name: 'event-log-locked',
  title: 'the SQLite log write-locked by another process for 6 s: admin writes 503 JSON + Retry-After (no hang), reads 200 on both API nodes, keyed retries after the release succeed once',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 1 }, async ({ cluster }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'locked', name: 'Locked' });
      await cluster.adminApi('PUT', '/admin/collections/locked/items/seen', { data: { n: 0 } });
      const key = await createReaderKey(cluster);
      const file = (cluster.env.EVENT_STORE_URL ?? '').replace(/^sqlite:/, '');
      const readers = startSteadyReaders(cluster.apis.map((node, i) => ({ name: `api${i}`, url: `${node.url}/public/data/seen`, headers: { 'X-API-Key': key } })), { concurrency: 2, pauseMs: 20, timeoutMs: 5_000 });
      const { result: during, releasedAt } = await holdingWriteLock(file, async () => {
        const answers: ProbeResult[] = [];
        for (let n = 1; n <= WRITES; n++) answers.push(await put(cluster.admin.url, n));
        return answers;
      });
      const retries: ProbeResult[] = [];
      for (let n = 1; n <= WRITES; n++) retries.push(await put(cluster.admin.url, n));
      const retriedAfterMs = performance.now() - releasedAt;
      await readers.stop();
      const log = createSqliteEventStore(openSqliteDatabase(file));
      const versions = await Promise.all(Array.from({ length: WRITES }, async (_, i) => (await log.readStream(`item-l${i + 1}`)).length)).finally(() => log.close());
      const reads = statusCounts(readers.records);
      const line = `${WRITES} admin writes during a ${seconds(LOCK_MS)} write lock: ${during.map((a) => `${a.status ?? a.error} in ${seconds(a.ms)}`).join(', ')}; reads on both API nodes ${JSON.stringify(reads)}; keyed retries after the release ${retries.map((r) => r.status).join(', ')} (all ${WRITES} within ${seconds(retriedAfterMs)}), versions per item ${versions.join(',')}`;
      const problems = problemsOf([
        ...during.map((a, i) => (a.ms > ANSWER_WITHIN_MS || !isHonest503(a)) && `write ${i + 1} during the lock: ${a.status ?? a.error} after ${Math.round(a.ms)} ms ${a.body.slice(0, 120)}`),
        ...readers.records.filter((r) => r.status !== 200).slice(0, 5).map((r) => `${r.target} read: ${r.status ?? r.error} ${r.body.slice(0, 120)}`),
        ...retries.map((r, i) => (r.status === null || r.status >= 300) && `retry ${i + 1} after the release: ${r.status ?? r.error} ${r.body.slice(0, 120)}`),
        ...versions.map((count, i) => count !== 1 && `item l${i + 1} has ${count} versions from one write`),
        ...(await finalReadProblems({ cluster, key, writes: retries.map((r, i) => ({ dataId: `l${i + 1}`, n: i + 1, status: r.status })) })),
      ]);
      return { name: eventLogLocked.name, line, problems };
    }),
};
