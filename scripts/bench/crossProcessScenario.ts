import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteEventStore, openSqliteDatabase } from '@pubstream/event-store';
import { sleep } from '@pubstream/testing';
import { adminCall, createBenchKeys } from './adminClient.js';
import { startChild } from './childProcess.js';
import type { BenchRow } from './report.js';
import type { ScenarioContext } from './scenarioContext.js';
import { startDistributedService, type BenchService } from './service.js';
import { openSubscribers, percentile } from './sseLoad.js';

interface FollowerReport {
  readonly latencies: number[];
  readonly idleCpuMs: number;
  readonly idleMs: number;
}

/** Waits for the follower's JSON line on stdout. */
const followerReport = (stdout: NodeJS.ReadableStream): Promise<FollowerReport> =>
  new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      stdout.off('data', onData);
      resolve(JSON.parse(line) as FollowerReport);
    };
    stdout.on('data', onData);
  });

/**
 * One follower process (as the projector follows the log) and this process appending `ticks` events
 * at 20/s: the time from append to arrival on the other process, then the follower's CPU while idle.
 */
const followOnce = async (file: string, mode: 'watch' | 'poll200', ticks: number, idleSeconds: number): Promise<FollowerReport> => {
  const follower = await startChild('scripts/bench/logFollower.ts', [file, mode, String(idleSeconds)], { ready: /FOLLOWING/ });
  const store = createSqliteEventStore(openSqliteDatabase(file));
  try {
    const report = followerReport(follower.child.stdout as NodeJS.ReadableStream);
    const stream = `item-${mode}-${Date.now()}`;
    for (let n = 0; n < ticks; n++) {
      await store.appendToStream(stream, [{ type: 'Tick', data: { ts: Date.now(), n } }], { expectedRevision: 'any' });
      await sleep(40 + Math.random() * 20);
    }
    await store.appendToStream(stream, [{ type: 'Stop', data: {} }], { expectedRevision: 'any' });
    return await report;
  } finally {
    await store.close();
    await follower.stop();
  }
};

/** `--only=crossprocess`: a write to the SQLite log reaching another process, the new watch against the old 200 ms poll. */
export const measureCrossProcessLog = async (context: ScenarioContext): Promise<void> => {
  console.log('\nCross-process delivery on the SQLite log (writer here, follower in its own process)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pubstream-bench-xproc-'));
  const ticks = context.quick ? 100 : 300;
  const idleSeconds = context.quick ? 5 : 10;
  try {
    const file = path.join(dir, 'events.db');
    // Alternating, so that both modes see the same drift of the machine's load.
    const runs: Record<'watch' | 'poll200', FollowerReport[]> = { watch: [], poll200: [] };
    for (const mode of ['watch', 'poll200', 'watch', 'poll200'] as const) runs[mode].push(await followOnce(file, mode, ticks / 2, idleSeconds / 2));
    const rows = (['watch', 'poll200'] as const).map((mode): BenchRow => {
      const latencies = runs[mode].flatMap((r) => r.latencies);
      const cpuShare = runs[mode].reduce((sum, r) => sum + r.idleCpuMs, 0) / runs[mode].reduce((sum, r) => sum + r.idleMs, 0);
      const watch = mode === 'watch';
      return {
        scenario: watch ? 'log append → follower on another process (data_version watch + file events)' : 'log append → follower on another process (old 200 ms poll)',
        profile: 'embedded',
        unit: '%',
        value: cpuShare * 100,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        ...(watch ? { target: 'p99 ≤ 50 ms; idle CPU as % of one core', met: percentile(latencies, 99) <= 50 } : {}),
        note: `${latencies.length} appends, p90 ${percentile(latencies, 90)} ms, max ${Math.max(...latencies)} ms; value = follower CPU while idle, % of one core`,
      };
    });
    for (const row of rows) {
      context.rows.push(row);
      console.log(`  ${row.scenario}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, idle CPU ${row.value.toFixed(2)} % of a core (${row.note})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** One round: `subscribers` streams on the API process, `writes` writes 150-250 ms apart; latencies of the writes only. */
const deliveries = async (service: BenchService, key: string, subscribers: number, writes: number): Promise<{ latencies: number[]; connected: number }> => {
  const load = await openSubscribers(`${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key)}&dataIds=hot`, subscribers, 1);
  await sleep(1_000);
  // The snapshot each stream opened with is not a delivery of a write.
  const snapshots = load.latencies().length;
  for (let seq = 1; seq <= writes; seq++) {
    await adminCall(service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq } }).catch(() => undefined);
    await sleep(150 + Math.random() * 100);
  }
  await sleep(1_000);
  const latencies = load.latencies().slice(snapshots);
  const connected = load.connected();
  load.close();
  return { latencies, connected };
};

/**
 * The distributed profile end to end: the admin appends to the SQLite log, the projector (another
 * process) notices, applies and publishes to Kafka, the API process fans out. First with 10
 * streams (the pipeline's own latency), then with 1,000 (the target).
 */
/**
 * Waits until the API node serves the item with the new key: the projector of a fresh service on a
 * Redis that earlier scenarios filled may take more than a second to apply them, and until then
 * the node rightly answers 401 for a key it does not know yet.
 */
const untilReadable = async (url: string, key: string, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(url, { headers: { 'X-API-Key': key } }).then((response) => response.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the API node still answers ${status} for the new key after ${timeoutMs} ms`);
    await sleep(200);
  }
};

export const measureCrossProcessFanout = async (redisUrl: string, kafkaBrokers: string, context: ScenarioContext): Promise<void> => {
  const service = await startDistributedService(redisUrl, kafkaBrokers);
  try {
    const [key] = await createBenchKeys(service, 1);
    await adminCall(service, 'POST', '/collections', { slug: 'live', name: 'Live', sortableFields: [] });
    await adminCall(service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq: 0 } });
    await untilReadable(`${service.publicUrl}/public/data/hot`, key ?? '');
    const writes = context.quick ? 50 : 150;
    for (const subscribers of [10, 1_000]) {
      const { latencies, connected } = await deliveries(service, key ?? '', subscribers, writes);
      const target = subscribers === 1_000;
      const row: BenchRow = {
        scenario: `write → ${subscribers.toLocaleString('en-US')} subscribers on the API process (admin, projector, API: 3 processes)`,
        profile: 'redis+kafka',
        unit: 'ms',
        value: percentile(latencies, 99),
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        ...(target ? { target: 'p99 ≤ 50 ms', met: percentile(latencies, 99) <= 50 } : {}),
        note: `${connected} connected, ${latencies.length} deliveries of ${writes} writes (expected ${writes * connected}), p90 ${percentile(latencies, 90)} ms`,
      };
      context.rows.push(row);
      console.log(`  ${row.scenario}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms (${row.note})`);
    }
  } finally {
    await service.stop();
  }
};
