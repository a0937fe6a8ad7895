import { createHttpMetrics } from '@pubstream/observability';
import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';

type Labels = { method: string; route: string; status: string };

/**
 * Counts and times every request by method, matched route pattern (never the raw path: ids would
 * explode cardinality) and the status actually answered. Registered before the error middleware,
 * so a refusal counts with its real status, not the one Koa held when the error was thrown.
 */
export const requestMetrics = (registry: Registry): Middleware => {
  const http = createHttpMetrics(registry);
  // One label object per method, route pattern and status (a small, fixed set), built once.
  const labelSets = new Map<string, Labels>();
  const labelsOf = (method: string, route: string, status: number): Labels => {
    const name = `${method} ${route} ${status}`;
    let labels = labelSets.get(name);
    if (!labels) labelSets.set(name, (labels = { method, route, status: String(status) }));
    return labels;
  };
  return async function measure(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const labels = labelsOf(ctx.method, route === undefined ? 'unmatched' : String(route), ctx.status);
      http.requests.inc(labels);
      http.duration.observe(labels, (performance.now() - started) / 1000);
    }
  };
};
