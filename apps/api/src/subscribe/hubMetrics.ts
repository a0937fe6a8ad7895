import { registerScrapedTotal } from '@pubstream/observability';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { FanoutHub } from './fanoutHub.js';

/**
 * Exposes the hub's state on a Prometheus registry (docs/operations.md, "Metrics"), read at scrape
 * time from `hub.stats()` (no work on the delivery path), and the fanout latency histogram, one
 * observation per batch of change messages that reached a stream.
 */
export const registerFanoutHubMetrics = (registry: Registry, hub: FanoutHub): void => {
  const latency = new Histogram({
    name: 'pubstream_sse_fanout_latency_seconds',
    help: 'From a batch of change messages reaching this node to the end of the socket writes that sent its deltas',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  hub.observeFanout((seconds) => latency.observe(seconds));
  registerScrapedTotal(registry, 'pubstream_sse_frames_sent_total', 'SSE frames handed to /subscribe streams since start (a frame sent to N streams counts N)', () => hub.stats().framesSent);
  registerScrapedTotal(registry, 'pubstream_sse_slow_consumer_cuts_total', 'Streams cut since start because their client did not read fast enough (reconnect reason slow_consumer)', () => hub.stats().ended.slow_consumer ?? 0);
  new Gauge({
    name: 'pubstream_sse_streams',
    help: 'Open /subscribe streams on this node, by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = hub.stats();
      this.set({ state: 'live' }, stats.streams);
      this.set({ state: 'connecting' }, stats.connecting);
    },
  });
  new Gauge({
    name: 'pubstream_sse_buffered_bytes',
    help: 'Bytes written to /subscribe streams and not yet taken by their sockets',
    registers: [registry],
    collect() {
      this.set(hub.stats().bufferedBytes);
    },
  });
  new Gauge({
    name: 'pubstream_sse_streams_ended',
    help: 'Streams ended since start, by reason (cycle, shutdown, key_revoked, slow_consumer, client_closed, …)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      for (const [reason, count] of Object.entries(hub.stats().ended)) this.set({ reason }, count);
    },
  });
  new Gauge({
    name: 'pubstream_sse_page_reads',
    help: 'Collection page reads done by the fanout hub since start (snapshots and coalesced recomputes)',
    registers: [registry],
    collect() {
      this.set(hub.stats().pageReads);
    },
  });
};
