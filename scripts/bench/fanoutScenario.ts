import { sleep } from '@pubstream/testing';
import { adminCall } from './adminClient.js';
import type { ProfileRun } from './profileRun.js';
import { bytesToMb } from './scenarioContext.js';
import { openSubscribers, percentile } from './sseLoad.js';

/** N subscribers to one hot item and one collection while an operator writes 50 times a second. */
export const measureFanout = async (run: ProfileRun): Promise<void> => {
  const { profile, service, context, push } = run;
  const key = run.keys[0] ?? '';
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
    peakRssMb: bytesToMb(service.api.peakRssBytes()),
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
