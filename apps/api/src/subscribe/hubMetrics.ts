import { Gauge, type Registry } from 'prom-client';
import type { FanoutHub } from './fanoutHub.js';

/**
 * Exposes the hub's state on a Prometheus registry, read at scrape time from `hub.stats()` (no
 * work on the delivery path).
 */
export const registerFanoutHubMetrics = (registry: Registry, hub: FanoutHub): void => {
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
