import { adminCall, createBenchKeys, importItems } from './adminClient.js';
import { runLoad, type LoadRequest } from './httpLoad.js';
import { startBenchKafka, startBenchRedis } from './localBackends.js';
import { redisBenchmarkGet } from './redisBaseline.js';
import { measureReplay } from './replay.js';
import type { BenchRow } from './report.js';
import { startDistributedService, startEmbeddedService, type BenchService } from './service.js';
import { openSubscribers, percentile } from './sseLoad.js';
import { runStreamScenarios } from './streamScenarios.js';

export interface ScenarioContext {
  readonly quick: boolean;
  readonly seconds: number;
  readonly rows: BenchRow[];
  readonly notes: string[];
  readonly only?: string;
}

type Profile = BenchRow['profile'];
const mb = (bytes: number) => bytes / 2 ** 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const find = (rows: readonly BenchRow[], scenario: string, profile: Profile) => rows.find((r) => r.scenario === scenario && r.profile === profile);

/** Every scenario of issue 6 against one running service. */
const runProfile = async (profile: Profile, service: BenchService, context: ScenarioContext): Promise<void> => {
  const { quick, seconds, rows } = context;
  const items = quick ? 50_000 : 100_000;
  const koa = find(rows, 'koa hello (100 conn)', 'baseline');
  const keys = await createBenchKeys(service, 8);
  const withKeys = (request: Omit<LoadRequest, 'headers'> & { headers?: Record<string, string> }): LoadRequest[] =>
    keys.map((key) => ({ ...request, headers: { ...request.headers, 'x-api-key': key } }));
  const push = (row: BenchRow) => {
    rows.push(row);
    console.log(`  [${profile}] ${row.scenario}: ${Math.round(row.value).toLocaleString('en-US')} ${row.unit}${row.p99Ms === undefined ? '' : `, p99 ${row.p99Ms} ms`}`);
  };

  await adminCall(service, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
  const importRate = await importItems(service, 'bench', 0, 20_000);
  push({ scenario: 'admin import 20,000 items (NDJSON)', profile, unit: 'items/s', value: importRate, target: '≥ 5,000 items/s', met: importRate >= 5_000 });
  await importItems(service, 'bench', 20_000, items);

  const load = async (scenario: string, requests: LoadRequest[], connections: number) => {
    await runLoad(service.publicUrl, requests, { connections, durationSeconds: 1 }); // warm-up
    const result = await runLoad(service.publicUrl, requests, { connections, durationSeconds: seconds });
    if (result.non2xx > 0 || result.errors > 0) context.notes.push(`${profile} / ${scenario}: ${result.non2xx} non-2xx and ${result.errors} errors of ${result.total} requests`);
    return result;
  };

  for (const connections of [10, 100]) {
    const scenario = `GET item (${connections} conn)`;
    const result = await load(scenario, withKeys({ path: '/public/data/item-0004242' }), connections);
    const ratio = koa ? result.requestsPerSecond / koa.value : undefined;
    const at100 = connections === 100;
    push({
      scenario,
      profile,
      unit: 'req/s',
      value: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      peakRssMb: mb(service.api.peakRssBytes()),
      baseline: 'koa hello',
      ratio,
      ...(at100 ? { target: '≥ 0.6× koa hello, p99 < 10 ms', met: (ratio ?? 0) >= 0.6 && result.p99Ms < 10 } : {}),
    });
  }
  const getItem = find(rows, 'GET item (100 conn)', profile);

  const ids = Array.from({ length: 100 }, (_, i) => `item-${String(i * 97).padStart(7, '0')}`);
  const batch = await load('POST batch of 100', withKeys({ method: 'POST', path: '/public/batch', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dataIds: ids }) }), 100);
  push({
    scenario: 'POST batch of 100 ids (items/s)',
    profile,
    unit: 'items/s',
    value: batch.requestsPerSecond * 100,
    p50Ms: batch.p50Ms,
    p99Ms: batch.p99Ms,
    target: '≥ 100,000 items/s',
    met: batch.requestsPerSecond * 100 >= 100_000,
  });

  const lastPage = Math.floor(items / 20);
  for (const sort of ['createdAt', 'score']) {
    const pages: Record<number, number> = {};
    for (const page of [1, Math.min(2_000, lastPage)]) {
      const scenario = `GET page of 20 by ${sort}, page ${page.toLocaleString('en-US')}`;
      const result = await load(scenario, withKeys({ path: `/public/collections/bench/data?sort=${sort}&limit=20&page=${page}` }), 100);
      pages[page] = result.requestsPerSecond;
      const first = page === 1;
      const ratio = first ? (getItem ? result.requestsPerSecond / getItem.value : undefined) : result.requestsPerSecond / (pages[1] ?? 1);
      push({
        scenario,
        profile,
        unit: 'req/s',
        value: result.requestsPerSecond,
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        baseline: first ? 'GET item (100 conn)' : 'page 1',
        ratio,
        target: first ? '≥ 0.5× GET item' : 'no slower than 2× page 1 (ratio ≥ 0.5)',
        met: (ratio ?? 0) >= 0.5,
      });
    }
  }

  await runFanout(profile, service, keys[0] ?? '', context, push);
};

/** N subscribers to one hot item and one collection while an operator writes 50 times a second. */
const runFanout = async (profile: Profile, service: BenchService, key: string, context: ScenarioContext, push: (row: BenchRow) => void): Promise<void> => {
  const subscribers = context.quick ? 1_000 : 10_000;
  await adminCall(service, 'POST', '/collections', { slug: 'live', name: 'Live', sortableFields: [] });
  await adminCall(service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq: 0 } });
  await sleep(500);
  const rssBefore = service.api.rssBytes();
  const url = `${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key)}&dataIds=hot&collections=live`;
  const load = await openSubscribers(url, subscribers, Math.max(1, Math.floor(subscribers / 200)));
  await sleep(1_000);
  const perStream = (service.api.rssBytes() - rssBefore) / load.connected();
  const framesBefore = load.frames();
  const writeSeconds = context.quick ? 5 : 10;
  const started = performance.now();
  const writes: Promise<unknown>[] = [];
  for (let seq = 1; seq <= writeSeconds * 50; seq++) {
    writes.push(adminCall(service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq } }).catch(() => undefined));
    await sleep(Math.max(0, started + seq * 20 - performance.now()));
  }
  await Promise.all(writes);
  await sleep(1_000);
  const elapsed = (performance.now() - started) / 1000;
  const delivered = (load.frames() - framesBefore) / elapsed;
  const latencies = load.latencies();
  load.close();
  push({
    scenario: `SSE fanout: ${subscribers.toLocaleString('en-US')} subscribers, 50 writes/s`,
    profile,
    unit: 'events/s',
    value: delivered,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    peakRssMb: mb(service.api.peakRssBytes()),
    target: 'p99 < 100 ms',
    met: percentile(latencies, 99) < 100,
    note: `${load.connected()} connected`,
  });
  push({
    scenario: 'SSE server RSS per idle stream',
    profile,
    unit: 'KB/stream',
    value: perStream / 1024,
    target: '< 20 KB per idle stream',
    met: perStream / 1024 < 20,
  });
  context.notes.push(
    `${profile} fanout: ${load.connected()} streams; expected ${(subscribers * 100).toLocaleString('en-US')} events/s if every write produced an item and a collection event for every subscriber; collection pages are coalesced, so fewer is by design.`,
  );
};

export const runScenarios = async (context: ScenarioContext): Promise<void> => {
  const { only } = context;
  if (!only || only === 'streams') await runStreamScenarios(context);
  if (!only || only === 'embedded') {
    console.log('\nEmbedded profile (SQLite log, memory read models, one process)');
    const service = await startEmbeddedService();
    try {
      await runProfile('embedded', service, context);
    } finally {
      await service.stop();
    }
  }
  if (!only || only === 'redis' || only === 'replay') {
    const redis = startBenchRedis();
    if (!redis) {
      context.notes.push('Redis profile skipped: no redis-server could be started.');
      return;
    }
    try {
      const port = Number(new URL(redis.url).port);
      const store = redisBenchmarkGet(port, context.quick ? 200_000 : 1_000_000);
      context.rows.push({ scenario: 'redis-benchmark GET (50 conn)', profile: 'baseline', unit: 'ops/s', value: store.opsPerSecond, p50Ms: store.p50Ms, p99Ms: store.p99Ms });
      console.log(`  redis-benchmark GET: ${Math.round(store.opsPerSecond)} ops/s`);
      await measureReplay(redis.url, context);
      if (only !== 'replay') {
        const kafka = startBenchKafka();
        if (!kafka) context.notes.push('Redis + Kafka profile skipped: no Kafka broker could be started.');
        else {
          console.log('\nDistributed profile (Redis read models and rate limits, Kafka change stream; API, projector and admin processes)');
          try {
            const service = await startDistributedService(redis.url, kafka.url);
            try {
              await runProfile('redis+kafka', service, context);
            } finally {
              await service.stop();
            }
          } catch (error) {
            context.notes.push(`Redis + Kafka profile failed: ${(error as Error).message.split('\n')[0]}`);
            console.log(`  Redis + Kafka profile failed: ${(error as Error).message}`);
          } finally {
            kafka.stop();
          }
        }
      }
    } finally {
      redis.stop();
    }
  }
};
