import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { FanoutHub, HubStats } from './fanoutHub.js';
import { registerFanoutHubMetrics } from './hubMetrics.js';

describe('registerFanoutHubMetrics', () => {
  it('reports the hub stats at scrape time', async () => {
    let stats: HubStats = { streams: 3, connecting: 1, bufferedBytes: 2048, peakBufferedBytesPerStream: 0, ended: { cycle: 5, slow_consumer: 1 }, pageReads: 7, changeMessages: 0 };
    const hub = { stats: () => stats } as unknown as FanoutHub;
    const registry = new Registry();
    registerFanoutHubMetrics(registry, hub);
    let text = await registry.metrics();
    expect(text).toContain('pubstream_sse_streams{state="live"} 3');
    expect(text).toContain('pubstream_sse_streams{state="connecting"} 1');
    expect(text).toContain('pubstream_sse_buffered_bytes 2048');
    expect(text).toContain('pubstream_sse_streams_ended{reason="slow_consumer"} 1');
    expect(text).toContain('pubstream_sse_page_reads 7');
    stats = { ...stats, streams: 0 };
    text = await registry.metrics();
    expect(text).toContain('pubstream_sse_streams{state="live"} 0');
  });
});
