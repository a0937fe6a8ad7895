import { isDeepStrictEqual } from 'node:util';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { eventually } from '@pubstream/testing';
import type { DistributedCluster } from '../distributedCluster.js';

/** An admin write as a scenario records it: which item, the `n` it wrote, how it was answered. */
export interface AnsweredWrite {
  readonly dataId: string;
  readonly n: number;
  readonly status: number | null;
}

/** A live key with a high rate limit, for reading back through the API nodes. */
export const createReaderKey = async (cluster: Pick<DistributedCluster, 'adminApi'>, name = 'chaos-reader'): Promise<string> =>
  (await cluster.adminApi<{ key: string }>('POST', '/admin/keys', { name, type: 'live', rateLimit: 50_000 })).key;

const readItem = async (apiUrl: string, key: string, dataId: string): Promise<unknown> => {
  const response = await fetch(`${apiUrl}/public/data/${dataId}`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(2_000) });
  const body = (await response.json()) as { data?: unknown };
  return response.status === 200 ? body.data : { status: response.status, body };
};

/**
 * Issue 23, "throughout": at the end every write answered 2xx is readable through every API node
 * at its item's final version, i.e. the data of the last event in the log for that item (which is
 * at least the write's own `n`). Allows `withinMs` for the last writes to travel. Returns problems.
 */
export const finalReadProblems = async (options: {
  readonly cluster: DistributedCluster;
  readonly key: string;
  readonly writes: readonly AnsweredWrite[];
  readonly withinMs?: number;
}): Promise<string[]> => {
  const answered = options.writes.filter((write) => write.status !== null && write.status >= 200 && write.status < 300);
  const dataIds = [...new Set(answered.map((write) => write.dataId))];
  const log = createSqliteEventStore(openSqliteDatabase((options.cluster.env.EVENT_STORE_URL ?? '').replace(/^sqlite:/, '')));
  const expected = new Map<string, unknown>();
  try {
    for (const dataId of dataIds) expected.set(dataId, ((await log.readStream(`item-${dataId}`)).at(-1)?.data as { data?: unknown } | undefined)?.data);
  } finally {
    await log.close();
  }
  const problems: string[] = [];
  for (const write of answered) {
    const n = (expected.get(write.dataId) as { n?: unknown } | undefined)?.n;
    if (typeof n !== 'number' || n < write.n) problems.push(`write n=${write.n} to ${write.dataId} answered ${write.status} but the log's last version of it has n=${String(n)}`);
  }
  const mismatches = async (): Promise<string[]> => {
    const found: string[] = [];
    for (const node of options.cluster.apis)
      for (const dataId of dataIds) {
        const read = await readItem(node.url, options.key, dataId).catch((error: unknown) => ({ error: String(error) }));
        if (!isDeepStrictEqual(read, expected.get(dataId))) found.push(`${node.url} ${dataId}: ${JSON.stringify(read)} instead of ${JSON.stringify(expected.get(dataId))}`);
      }
    return found;
  };
  const last = await eventually('every answered write readable at its final version on every API node', async () => {
    const found = await mismatches();
    return found.length === 0 ? found : undefined;
  }, options.withinMs ?? 10_000, 200).catch(() => mismatches());
  return [...problems, ...last.slice(0, 5)];
};
