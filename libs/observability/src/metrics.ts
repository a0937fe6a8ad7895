import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface MetricsConfig {
  /** Added as the `app` label to every metric of this registry (api, admin, projector, …). */
  readonly app: string;
  /** Process metrics (CPU, memory, event loop lag, GC); off in unit tests. */
  readonly collectDefaults?: boolean;
}

/** A Prometheus registry per process, so tests and in-process apps never share global state. */
export const createMetricsRegistry = (config: MetricsConfig): Registry => {
  const registry = new Registry();
  registry.setDefaultLabels({ app: config.app });
  if (config.collectDefaults ?? true) collectDefaultMetrics({ register: registry });
  return registry;
};

export interface HttpMetrics {
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route' | 'status'>;
}

/** Request count and latency by route pattern (never the raw path: ids would explode cardinality). */
export const createHttpMetrics = (registry: Registry): HttpMetrics => ({
  requests: new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  }),
  duration: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  }),
});

/**
 * A counter whose value is read at scrape time from a total the caller keeps anyway (no work on
 * the path that counts): the hub's frames, the projector's events.
 */
export const registerScrapedTotal = (registry: Registry, name: string, help: string, read: () => number): void => {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
};
