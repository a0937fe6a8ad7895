import { isDeepStrictEqual } from 'node:util';
import { createClient } from 'redis';
import { createSqliteEventStore, openSqliteDatabase, type RecordedEvent } from '@pubstream/event-store';
import { sleep } from '@pubstream/testing';
import { ADMIN_TOKEN } from '../adminHttp.js';
import { withChaosCluster } from './chaosCluster.js';
import { createReaderKey, finalReadProblems } from './finalReads.js';
import { problemsOf, type ChaosScenario } from './scenarioOutcome.js';

// Issue 23, finding 3: Redis client connections killed (CLIENT KILL) every 100 ms during 30 admin
// writes with Idempotency-Keys (ten items, three writes each). No committed write is answered
// 5xx; a retry with the same key gives the same answer (a write answered 5xx that committed
// nothing may commit on its retry: that is the point of retrying it); no item gains more versions
// than the writes made to it.

const WRITES = 30;
const ITEMS = 10;

interface KeyedWrite {
  readonly dataId: string;
  readonly n: number;
  readonly key: string;
  readonly status: number;
  readonly body: unknown;
}

const put = async (adminUrl: string, dataId: string, n: number, key: string): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(`${adminUrl}/admin/collections/kill/items/${dataId}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ data: { n } }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
};

/** Runs `during` while another client kills every normal connection of the Redis every 100 ms; returns how many kill rounds ran. */
const killingClients = async <T>(redisUrl: string, during: () => Promise<T>): Promise<{ result: T; rounds: number }> => {
  const killer = createClient({ url: redisUrl });
  killer.on('error', () => undefined);
  await killer.connect();
  let killing = true;
  let rounds = 0;
  const kills = (async () => {
    while (killing) {
      await killer.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']).catch(() => undefined);
      rounds++;
      await sleep(100);
    }
  })();
  try {
    return { result: await during(), rounds };
  } finally {
    killing = false;
    await kills;
    await killer.quit().catch(() => undefined);
  }
};

/** Problems found in the log: a 5xx write whose data was committed, an item with more versions than writes. */
const logProblems = (writes: readonly KeyedWrite[], streams: Map<string, RecordedEvent[]>): (string | false)[] => {
  const committed = (write: KeyedWrite) => (streams.get(write.dataId) ?? []).some((event) => isDeepStrictEqual((event.data as { data?: unknown }).data, { n: write.n }));
  return [
    ...writes.filter((w) => w.status >= 500 && committed(w)).map((w) => `write n=${w.n} to ${w.dataId} was committed but answered ${w.status} ${JSON.stringify(w.body)}`),
    ...[...streams].map(([dataId, events]) => events.length > WRITES / ITEMS && `${dataId} has ${events.length} versions from ${WRITES / ITEMS} writes`),
  ];
};

export const redisClientKill: ChaosScenario = {
  name: 'redis-client-kill',
  title: 'Redis client connections killed every 100 ms during 30 keyed admin writes: no committed write answered 5xx, retries with the same key answer the same, no item gains more versions than writes',
  run: ({ brokers }) =>
    withChaosCluster({ brokers, apis: 2, projectors: 1, env: { READ_YOUR_WRITES_TIMEOUT_MS: '1000' } }, async ({ cluster, redis }) => {
      await cluster.adminApi('POST', '/admin/collections', { slug: 'kill', name: 'Kill' });
      const key = await createReaderKey(cluster);
      const { result: writes, rounds } = await killingClients(redis.url, async () => {
        const done: KeyedWrite[] = [];
        for (let n = 1; n <= WRITES; n++) {
          const dataId = `k${n % ITEMS}`;
          done.push({ dataId, n, key: `kill-${n}`, ...(await put(cluster.admin.url, dataId, n, `kill-${n}`)) });
        }
        return done;
      });
      const retries = await Promise.all(writes.map((write) => put(cluster.admin.url, write.dataId, write.n, write.key)));
      const log = createSqliteEventStore(openSqliteDatabase((cluster.env.EVENT_STORE_URL ?? '').replace(/^sqlite:/, '')));
      const streams = new Map<string, RecordedEvent[]>();
      try {
        for (const dataId of new Set(writes.map((w) => w.dataId))) streams.set(dataId, await log.readStream(`item-${dataId}`));
      } finally {
        await log.close();
      }
      const answered = writes.map((write, i) => ({ ...write, status: write.status >= 500 ? retries[i]!.status : write.status }));
      const statuses = writes.reduce<Record<number, number>>((counts, w) => ({ ...counts, [w.status]: (counts[w.status] ?? 0) + 1 }), {});
      const problems = problemsOf([
        ...logProblems(writes, streams),
        ...writes.map((w, i) => w.status < 500 && !isDeepStrictEqual(retries[i], { status: w.status, body: w.body }) && `retry of ${w.key}: ${retries[i]!.status} ${JSON.stringify(retries[i]!.body)} instead of ${w.status} ${JSON.stringify(w.body)}`),
        ...(await finalReadProblems({ cluster, key, writes: answered })),
      ]);
      const line = `${WRITES} keyed writes under ${rounds} CLIENT KILL rounds: statuses ${JSON.stringify(statuses)}, ${writes.filter((w) => w.status >= 500).length} × 5xx; ${retries.length} same-key retries, ${writes.filter((w, i) => isDeepStrictEqual(retries[i], { status: w.status, body: w.body })).length} answered the same; versions per item ${[...streams.values()].map((e) => e.length).join(',')}`;
      return { name: redisClientKill.name, line, problems };
    }),
};
