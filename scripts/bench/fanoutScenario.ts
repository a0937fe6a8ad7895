import { sleep } from '@pubstream/testing';
import { adminCall } from './adminClient.js';
import { bucketPercentileMs, fanoutBuckets, type HistogramBuckets } from './fanoutHistogram.js';
import { processCpuSeconds } from './processCpu.js';
import type { ProfileRun } from './profileRun.js';
import { bytesToMb } from './scenarioContext.js';
import { openSubscribers, percentile } from './sseLoad.js';

/**
 * The fanout's size: the full run measures issue 20's target (10,000 subscribers × 5 writes/s),
 * the quick one 1,000 × 50; `--subscribers=N --writes=N` override either.
 */
const fanoutSize = (run: ProfileRun): { subscribers: number; writesPerSecond: number; writeSeconds: number } => ({
  subscribers: run.context.fanout?.subscribers ?? (run.context.quick ? 1_000 : 10_000),
  writesPerSecond: run.context.fanout?.writesPerSecond ?? (run.context.quick ? 50 : 5),
  writeSeconds: run.context.quick ? 5 : 10,
});

/** The API's fanout histogram now (empty if /metrics does not answer). */
const scrapeFanout = async (publicUrl: string): Promise<HistogramBuckets> => {
  const response = await fetch(`${publicUrl}/metrics`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
  return fanoutBuckets(response?.ok ? await response.text() : '');
};

/** Issue 20's p99 targets: 150 ms in one process, 250 ms through Redis + Kafka. */
const targetMs = (run: ProfileRun): number => (run.profile === 'embedded' ? 150 : 250);

/** Writes the hot item `perSecond` times a second (its data: the time and a seq from 1); returns the writes acknowledged. */
const writeAtRate = async (run: ProfileRun, perSecond: number, seconds: number): Promise<number> => {
  const started = performance.now();
  const writes: Promise<boolean>[] = [];
  for (let seq = 1; seq <= seconds * perSecond; seq++) {
    const write = adminCall(run.service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq } });
    writes.push(write.then(() => true, () => false));
    await sleep(Math.max(0, started + (seq * 1_000) / perSecond - performance.now()));
  }
  return (await Promise.all(writes)).filter(Boolean).length;
};

/** N subscribers to one hot item and one collection while an operator writes the item W times a second. */
export const measureFanout = async (run: ProfileRun): Promise<void> => {
  const { profile, service, context, push } = run;
  const key = run.keys[0] ?? '';
  const { subscribers, writesPerSecond, writeSeconds } = fanoutSize(run);
  await adminCall(service, 'POST', '/collections', { slug: 'live', name: 'Live', sortableFields: [] });
  await adminCall(service, 'PUT', '/collections/live/items/hot', { data: { ts: Date.now(), seq: 0 } });
  await sleep(500);
  const rssBefore = service.api.rssBytes();
  const url = `${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key)}&dataIds=hot&collections=live`;
  const load = await openSubscribers(url, subscribers, Math.max(1, Math.floor(subscribers / 200)), { bareSockets: run.context.bareSubscribers });
  await sleep(1_000);
  const perStream = (service.api.rssBytes() - rssBefore) / load.connected();
  const framesBefore = load.frames();
  const cpuBefore = processCpuSeconds(service.api.child.pid);
  const clientCpuBefore = process.cpuUsage();
  const histogramBefore = await scrapeFanout(service.publicUrl);
  const started = performance.now();
  const acknowledged = await writeAtRate(run, writesPerSecond, writeSeconds);
  await sleep(1_000);
  const elapsed = (performance.now() - started) / 1000;
  const frames = load.frames() - framesBefore;
  const delivered = frames / elapsed;
  const cpuMicrosPerFrame = ((processCpuSeconds(service.api.child.pid) - cpuBefore) * 1e6) / frames;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientMicrosPerFrame = (clientCpu.user + clientCpu.system) / frames;
  const histogramAfter = await scrapeFanout(service.publicUrl);
  const serverMs = (p: number): string => `≤ ${bucketPercentileMs(histogramBefore, histogramAfter, p)} ms`;
  const latencies = load.latencies();
  // Every acknowledged write must reach every sampled subscriber (updates of one item are never coalesced).
  const lost = acknowledged * load.sampled() - load.sampledSeqs();
  load.close();
  const p99 = percentile(latencies, 99);
  push({
    scenario: `SSE fanout: ${subscribers.toLocaleString('en-US')} subscribers, ${writesPerSecond} writes/s`,
    profile,
    unit: 'events/s',
    value: delivered,
    p50Ms: percentile(latencies, 50),
    p99Ms: p99,
    peakRssMb: bytesToMb(service.api.peakRssBytes()),
    target: `p99 ≤ ${targetMs(run)} ms, nothing lost`,
    met: p99 <= targetMs(run) && lost === 0,
    note: `${load.connected()} connected; CPU per delivered frame: server ${cpuMicrosPerFrame.toFixed(2)} µs, load generator ${clientMicrosPerFrame.toFixed(2)} µs (${run.context.bareSubscribers ? 'bare sockets' : 'http.get'}); server-side fanout (hub to end of socket writes) p50 ${serverMs(50)}, p99 ${serverMs(99)}; ${lost} of ${acknowledged * load.sampled()} item updates lost at ${load.sampled()} parsing subscribers`,
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
    `${profile} fanout: ${load.connected()} streams; expected ${(subscribers * writesPerSecond * 2).toLocaleString('en-US')} events/s if every write produced an item and a collection event for every subscriber; collection pages are coalesced, so fewer is by design.`,
  );
};
