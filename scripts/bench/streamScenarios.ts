import http from 'node:http';
import { sleep } from '@pubstream/testing';
import { busiestShare, openRetryingSubscribers, startArrivalRecorder } from '../../apps/api/src/subscribe/testing/retryingSubscribers.js';
import { adminCall, createBenchKeys } from './adminClient.js';
import type { BenchRow } from './report.js';
import { bytesToMb as mb, type ScenarioContext } from './scenarioContext.js';
import { startEmbeddedService, type BenchService } from './service.js';

/**
 * `count` readers that read a little now and then (one chunk every 0.3-0.7 s), far slower than the
 * stream is written: the stalled slow readers of issue 15 (finding 9).
 */
const openSlowReaders = async (url: string, count: number): Promise<{ close(): void; ended(): number }> => {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  const timers: NodeJS.Timeout[] = [];
  let ended = 0;
  const openOne = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(url, { agent }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`subscribe answered ${response.statusCode}`));
        response.once('data', () => {
          response.pause();
          resolve();
          const timer = setInterval(() => {
            response.once('data', () => response.pause());
            response.resume();
          }, 300 + Math.random() * 400);
          timers.push(timer);
        });
        response.once('end', () => ended++);
      });
      request.on('error', reject);
      requests.push(request);
    });
  for (let start = 0; start < count; start += 200) await Promise.all(Array.from({ length: Math.min(200, count - start) }, openOne));
  return {
    ended: () => ended,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
};

const streamsEnded = async (service: BenchService): Promise<string> => {
  const text = await (await fetch(`${service.publicUrl}/metrics`)).text();
  const ended = [...text.matchAll(/^pubstream_sse_streams_ended\{[^}]*reason="([^"]+)"[^}]*\} (\d+)/gm)].map(([, reason, n]) => `${reason} ${n}`);
  return ended.length > 0 ? ended.join(', ') : 'not exposed';
};

/**
 * 1,000 slow readers of a collection whose page 1 is 20 items of 16 KB (a 320 KB snapshot), while
 * its items are rewritten 10 times a second (each write a new 320 KB page): what they cost the server.
 */
const measureSlowReaders = async (context: ScenarioContext, push: (row: BenchRow) => void): Promise<void> => {
  const readers = 1_000;
  const service = await startEmbeddedService();
  try {
    const [key] = await createBenchKeys(service, 1);
    await adminCall(service, 'POST', '/collections', { slug: 'feed', name: 'Feed', sortableFields: [] });
    const text = 'x'.repeat(16 * 1024);
    for (let n = 0; n < 20; n++) await adminCall(service, 'PUT', `/collections/feed/items/item-${n}`, { data: { seq: 0, text } });
    await sleep(1_000);
    const idle = service.api.rssBytes();
    const load = await openSlowReaders(`${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key ?? '')}&collections=feed`, readers);
    await sleep(1_000);
    const connected = service.api.rssBytes();
    const seconds = context.quick ? 10 : 20;
    let peak = connected;
    for (let seq = 1; seq <= seconds * 10; seq++) {
      await adminCall(service, 'PUT', `/collections/feed/items/item-${seq % 20}`, { data: { seq, text } }).catch(() => undefined);
      peak = Math.max(peak, service.api.rssBytes());
      await sleep(100);
    }
    const added = peak - idle;
    const ended = await streamsEnded(service);
    load.close();
    push({
      scenario: `SSE ${readers.toLocaleString('en-US')} slow readers of a 320 KB page rewritten 10/s for ${seconds} s: peak RSS added`,
      profile: 'embedded',
      unit: 'MB',
      value: mb(added),
      peakRssMb: mb(service.api.peakRssBytes()),
      target: '< 150 MB (STREAM_BUFFER_BUDGET_MB 64 + ~20 KB per stream)',
      met: mb(added) < 150,
      note: `RSS idle ${mb(idle).toFixed(0)} MB, after opening the streams ${mb(connected).toFixed(0)} MB (+${mb(connected - idle).toFixed(0)}); streams ended: ${ended}`,
    });
  } finally {
    await service.stop();
  }
};

/** 2,000 streams on a node that gets SIGTERM, reconnecting as EventSource does: how they spread. */
const measureReconnectStorm = async (push: (row: BenchRow) => void): Promise<void> => {
  const streams = 2_000;
  const windowMs = 10_000;
  const service = await startEmbeddedService({ SHUTDOWN_RECONNECT_WINDOW_MS: String(windowMs) });
  const recorder = await startArrivalRecorder();
  try {
    const [key] = await createBenchKeys(service, 1);
    await adminCall(service, 'POST', '/collections', { slug: 'live', name: 'Live', sortableFields: [] });
    const subscribers = await openRetryingSubscribers(`${service.publicUrl}/subscribe?apiKey=${encodeURIComponent(key ?? '')}&collections=live`, streams, {
      reconnectUrl: recorder.url,
      defaultRetryMs: 3_000,
    });
    const signalledAt = performance.now();
    await service.api.stop();
    const exitMs = performance.now() - signalledAt;
    const deadline = Date.now() + windowMs + 15_000;
    while (recorder.arrivals.length < streams && Date.now() < deadline) await sleep(100);
    subscribers.close();
    const share = busiestShare(recorder.arrivals, signalledAt, 1_000);
    const spanMs = recorder.arrivals.length > 0 ? Math.max(...recorder.arrivals) - Math.min(...recorder.arrivals) : 0;
    push({
      scenario: `SSE reconnect storm: ${streams.toLocaleString('en-US')} streams, node stopped (window ${windowMs / 1000} s): busiest second`,
      profile: 'embedded',
      unit: '%',
      value: share * 100,
      target: `≤ ${Math.round((2 * 100_000) / windowMs)} % (even: ${Math.round(100_000 / windowMs)} %)`,
      met: share <= 2_000 / windowMs,
      note: `${recorder.arrivals.length} reconnections over ${(spanMs / 1000).toFixed(1)} s; node exited ${(exitMs / 1000).toFixed(1)} s after SIGTERM`,
    });
  } finally {
    await recorder.close();
    await service.stop();
  }
};

/** `npm run bench -- --only=streams`: the costs of slow readers and of a node's shutdown. */
export const runStreamScenarios = async (context: ScenarioContext): Promise<void> => {
  console.log('\nStreams (embedded profile): slow readers and reconnect storms');
  const push = (row: BenchRow) => {
    context.rows.push(row);
    console.log(`  ${row.scenario}: ${row.value.toFixed(1)} ${row.unit}${row.note ? ` (${row.note})` : ''}`);
  };
  await measureSlowReaders(context, push);
  await measureReconnectStorm(push);
};
