import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { FanoutHub, HubStats } from './fanoutHub.js';
import { registerFanoutHubMetrics } from './hubMetrics.js';

// The mapping from hub stats to series; that the series are registered and move in a running
// process is tests/e2e/metrics.e2e.test.ts, which scrapes /metrics over HTTP.
describe('registerFanoutHubMetrics', () => {
  it('reports the hub stats at scrape time', async () => {
    let stats: HubStats = { streams: 3, connecting: 1, bufferedBytes: 2048, peakBufferedBytesPerStream: 0, ended: { cycle: 5, slow_consumer: 1 }, pageReads: 7, changeMessages: 0, framesSent: 42 };
    let observe: (seconds: number) => void = () => undefined;
    const hub = { stats: () => stats, observeFanout: (listener: (seconds: number) => void) => (observe = listener) } as unknown as FanoutHub;
    const registry = new Registry();
    registerFanoutHubMetrics(registry, hub);
    let text = await registry.metrics();
    expect(text).toContain('pubstream_sse_streams{state="live"} 3');
    expect(text).toContain('pubstream_sse_streams{state="connecting"} 1');
    expect(text).toContain('pubstream_sse_buffered_bytes 2048');
    expect(text).toContain('pubstream_sse_streams_ended{reason="slow_consumer"} 1');
    expect(text).toContain('pubstream_sse_page_reads 7');
    expect(text).toContain('pubstream_sse_frames_sent_total 42');
    expect(text).toContain('pubstream_sse_slow_consumer_cuts_total 1');
    observe(0.003);
    text = await registry.metrics();
    expect(text).toContain('pubstream_sse_fanout_latency_seconds_bucket{le="0.005"} 1');
    expect(text).toContain('pubstream_sse_fanout_latency_seconds_count 1');
    stats = { ...stats, streams: 0 };
    text = await registry.metrics();
    expect(text).toContain('pubstream_sse_streams{state="live"} 0');
  });
});
