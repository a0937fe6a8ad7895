import os from 'node:os';
import { sleep } from '@pubstream/testing';
import { adminCall, createBenchKeys, importItems } from '../adminClient.js';
import { runLoad, type LoadRequest, type LoadResult } from '../httpLoad.js';
import type { BenchRow } from '../report.js';
import { bytesToMb, type ScenarioContext } from '../scenarioContext.js';
import { startEmbeddedService, type BenchService } from '../service.js';
import { openSubscribers, percentile } from '../sseLoad.js';
import { buildPocketBase } from './pocketbaseBuild.js';
import { loadPocketBase, pocketBaseId, startPocketBase, type PocketBase } from './pocketbaseServer.js';
import { openPocketBaseSubscribers } from './pocketbaseSubscribers.js';

const ITEMS = 10_000;
const CONNECTIONS = 50;

interface Targets {
  readonly pubstream: BenchService;
  readonly keys: readonly string[];
  readonly pocketbase: PocketBase;
  readonly version: string;
}

/** Both targets under the same load, alternating (Pubstream, PocketBase, Pubstream, PocketBase): the mean of each. */
const alternate = async (context: ScenarioContext, pub: LoadRequest[], pubUrl: string, peer: LoadRequest, peerUrl: string): Promise<[LoadResult[], LoadResult[]]> => {
  const results: [LoadResult[], LoadResult[]] = [[], []];
  for (let round = 0; round < 2; round++) {
    for (const [n, url, request] of [[0, pubUrl, pub], [1, peerUrl, peer]] as const) {
      await runLoad(url, request, { connections: CONNECTIONS, durationSeconds: 1 }); // warm-up
      const result = await runLoad(url, request, { connections: CONNECTIONS, durationSeconds: context.seconds });
      if (result.non2xx > 0 || result.errors > 0) context.notes.push(`peers: ${result.non2xx} non-2xx, ${result.errors} errors of ${result.total} on ${url}${Array.isArray(request) ? '' : (request as LoadRequest).path}`);
      results[n].push(result);
    }
  }
  return results;
};

const mean = (results: readonly LoadResult[], pick: (r: LoadResult) => number): number => results.reduce((s, r) => s + pick(r), 0) / results.length;

const httpRows = async (context: ScenarioContext, t: Targets, push: (row: BenchRow) => void): Promise<void> => {
  const withKeys = (path: string): LoadRequest[] => t.keys.map((key) => ({ path, headers: { 'x-api-key': key } }));
  const scenarios = [
    { name: 'GET item by id', pub: withKeys('/public/data/item-0004242'), peer: { path: `/api/collections/bench/records/${pocketBaseId(4242)}` }, target: 2 },
    { name: 'page 2 of 50, sorted by a number', pub: withKeys('/public/collections/bench/data?sort=score&limit=50&page=2'), peer: { path: '/api/collections/bench/records?page=2&perPage=50&sort=score' }, target: 5 },
    { name: 'page 150 of 50, sorted by a number', pub: withKeys('/public/collections/bench/data?sort=score&limit=50&page=150'), peer: { path: '/api/collections/bench/records?page=150&perPage=50&sort=score' }, target: 5 },
  ];
  for (const s of scenarios) {
    const [pub, peer] = await alternate(context, s.pub, t.pubstream.publicUrl, s.peer, t.pocketbase.url);
    const [pubRate, peerRate] = [mean(pub, (r) => r.requestsPerSecond), mean(peer, (r) => r.requestsPerSecond)];
    push({ scenario: `${s.name} (${CONNECTIONS} conn)`, profile: 'pocketbase', unit: 'req/s', value: peerRate, p50Ms: mean(peer, (r) => r.p50Ms), p99Ms: mean(peer, (r) => r.p99Ms), peakRssMb: bytesToMb(t.pocketbase.peakRssBytes()), note: `PocketBase ${t.version}` });
    push({
      scenario: `${s.name} (${CONNECTIONS} conn)`,
      profile: 'embedded',
      unit: 'req/s',
      value: pubRate,
      p50Ms: mean(pub, (r) => r.p50Ms),
      p99Ms: mean(pub, (r) => r.p99Ms),
      peakRssMb: bytesToMb(t.pubstream.api.peakRssBytes()),
      baseline: 'PocketBase',
      ratio: pubRate / peerRate,
      target: `≥ ${s.target}× PocketBase`,
      met: pubRate / peerRate >= s.target,
    });
  }
};

/** `writes` writes of one item, 400 ms apart, each to `subscribers` streams: latency write → arrival. */
const fanoutLatencies = async (write: (seq: number) => Promise<unknown>, writes: number): Promise<void> => {
  for (let seq = 1; seq <= writes; seq++) {
    await write(seq).catch(() => undefined);
    await sleep(300 + Math.random() * 200);
  }
  await sleep(1_500);
};

const fanoutRows = async (context: ScenarioContext, t: Targets, push: (row: BenchRow) => void): Promise<void> => {
  const subscribers = context.quick ? 1_000 : 5_000;
  const sampleEvery = Math.max(1, Math.floor(subscribers / 500));
  const writes = context.quick ? 10 : 20;
  const latencies: [number[], number[]] = [[], []];
  for (let round = 0; round < 2; round++) {
    const pub = await openSubscribers(`${t.pubstream.publicUrl}/subscribe?apiKey=${encodeURIComponent(t.keys[0] ?? '')}&dataIds=item-0000000`, subscribers, sampleEvery);
    await sleep(1_000);
    const skip = pub.latencies().length;
    await fanoutLatencies((seq) => adminCall(t.pubstream, 'PUT', '/collections/bench/items/item-0000000', { data: { title: 'Item 0', score: 0, ts: Date.now(), seq } }), writes);
    latencies[0].push(...pub.latencies().slice(skip));
    pub.close();
    const peer = await openPocketBaseSubscribers(t.pocketbase.url, `bench/${pocketBaseId(0)}`, subscribers, sampleEvery);
    await sleep(1_000);
    await fanoutLatencies((seq) => t.pocketbase.call('PATCH', `/api/collections/bench/records/${pocketBaseId(0)}`, { ts: Date.now(), seq }), writes);
    latencies[1].push(...peer.latencies());
    peer.close();
    await sleep(1_000);
  }
  const [pub, peer] = latencies;
  const scenario = `one write to ${subscribers.toLocaleString('en-US')} subscribers (latency)`;
  push({ scenario, profile: 'pocketbase', unit: 'ms', value: percentile(peer, 99), p50Ms: percentile(peer, 50), p99Ms: percentile(peer, 99), note: `${peer.length} sampled deliveries` });
  const ratio = percentile(peer, 99) / percentile(pub, 99);
  push({ scenario, profile: 'embedded', unit: 'ms', value: percentile(pub, 99), p50Ms: percentile(pub, 50), p99Ms: percentile(pub, 99), baseline: 'PocketBase p99 / Pubstream p99', ratio, target: '≥ 2× (PocketBase p99 / Pubstream p99)', met: ratio >= 2, note: `${pub.length} sampled deliveries; p50 ratio ${(percentile(peer, 50) / percentile(pub, 50)).toFixed(2)}×` });
};

/** `npm run bench -- --peers`: Pubstream (embedded) and PocketBase side by side, same data, same load generator. */
export const runPeers = async (context: ScenarioContext): Promise<void> => {
  console.log('\nPeers: Pubstream (embedded) and PocketBase, 10,000 items, alternating targets');
  const binary = buildPocketBase((line) => console.log(line));
  if (typeof binary === 'string') {
    console.log(`  [skip] peers: ${binary}`);
    context.notes.push(`peers skipped: ${binary}`);
    return;
  }
  const push = (row: BenchRow) => {
    context.rows.push(row);
    console.log(`  [${row.profile}] ${row.scenario}: ${Math.round(row.value).toLocaleString('en-US')} ${row.unit}${row.p99Ms === undefined ? '' : `, p50 ${row.p50Ms?.toFixed(1)} / p99 ${row.p99Ms.toFixed(1)} ms`}${row.ratio === undefined ? '' : `, ${row.ratio.toFixed(2)}×`}`);
  };
  // As `npm start` runs it: one API worker per core (PocketBase uses every core too).
  const workers = os.availableParallelism();
  context.notes.push(`Pubstream ran as \`npm start\` does: API_WORKERS=${workers} (one per core).`);
  const pubstream = await startEmbeddedService({ API_WORKERS: String(workers) });
  const pocketbase = await startPocketBase(binary.path).catch(async (error: unknown) => {
    await pubstream.stop();
    throw error;
  });
  try {
    const keys = await createBenchKeys(pubstream, 8);
    await adminCall(pubstream, 'POST', '/collections', { slug: 'bench', name: 'Bench', sortableFields: [{ name: 'score', type: 'number' }] });
    await importItems(pubstream, 'bench', 0, ITEMS);
    await loadPocketBase(pocketbase, ITEMS);
    const targets: Targets = { pubstream, keys, pocketbase, version: binary.version };
    await httpRows(context, targets, push);
    await fanoutRows(context, targets, push);
    context.notes.push(`peers: PocketBase ${binary.version} built from the Go module proxy with the local toolchain; both servers run at once on the same 2 cores as the load generator; each figure is the mean of two alternating rounds.`);
  } finally {
    await Promise.all([pubstream.stop(), pocketbase.stop()]);
  }
};
