import { Counter, type Registry } from 'prom-client';

export type Backend = 'redis' | 'kafka';

/**
 * Errors the Redis and Kafka adapters report (connection errors, consumer crashes, a rate limiter
 * falling back to memory), counted per backend and kind. The adapters get a callback from the
 * process that opens them; the process registers the tally on its /metrics registry, possibly
 * later (docs/operations.md, "Metrics"). One instance per process, never module state.
 */
export class BackendErrorTally {
  private readonly counts = new Map<string, { backend: Backend; kind: string; count: number }>();

  count(backend: Backend, kind: string): void {
    const key = `${backend}\u0000${kind}`;
    const entry = this.counts.get(key);
    if (entry) entry.count++;
    else this.counts.set(key, { backend, kind, count: 1 });
  }

  entries(): readonly { backend: Backend; kind: string; count: number }[] {
    return [...this.counts.values()];
  }
}

/** `pubstream_backend_errors_total{backend, kind}`, read from the tally at scrape time. */
export const registerBackendErrorMetrics = (registry: Registry, tally: BackendErrorTally): void => {
  new Counter({
    name: 'pubstream_backend_errors_total',
    help: 'Errors reported by the Redis and Kafka clients of this process, by backend and kind',
    labelNames: ['backend', 'kind'],
    registers: [registry],
    collect() {
      this.reset();
      // Always present, so dashboards and alerts see 0 rather than no data.
      this.inc({ backend: 'redis', kind: 'connection' }, 0);
      this.inc({ backend: 'kafka', kind: 'client' }, 0);
      for (const { backend, kind, count } of tally.entries()) this.inc({ backend, kind }, count);
    },
  });
};
