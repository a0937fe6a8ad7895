import { quantile, sumBy, type Scrape } from './promText.js';

/** A line of a panel: its legend and one value per sample (null: no data). */
export interface Line {
  readonly legend: string;
  readonly values: (number | null)[];
}

const WINDOW = 5;

/** Per-second increase of grouped counters between sample i-WINDOW and i, as rate() over a window. */
const rate = (scrapes: readonly Scrape[], name: string, by: readonly string[], where?: (labels: Record<string, string>) => boolean): Line[] => {
  const legends = new Set<string>();
  for (const scrape of scrapes) for (const key of sumBy(scrape, name, by, where).keys()) legends.add(key);
  return [...legends].map((legend) => ({
    legend: legend || name,
    values: scrapes.map((scrape, i) => {
      const from = scrapes[Math.max(0, i - WINDOW)];
      if (!from || from === scrape) return null;
      const delta = (sumBy(scrape, name, by, where).get(legend) ?? 0) - (sumBy(from, name, by, where).get(legend) ?? 0);
      return Math.max(0, delta) / ((scrape.at - from.at) / 1000);
    }),
  }));
};

const gauge = (scrapes: readonly Scrape[], name: string, by: readonly string[]): Line[] => {
  const legends = new Set<string>();
  for (const scrape of scrapes) for (const key of sumBy(scrape, name, by).keys()) legends.add(key);
  return [...legends].map((legend) => ({ legend: legend || name, values: scrapes.map((scrape) => sumBy(scrape, name, by).get(legend) ?? null) }));
};

/** histogram_quantile(q, sum by (le, extra) (rate(name_bucket[window]))). */
const histogramQuantile = (scrapes: readonly Scrape[], name: string, qs: readonly number[], where?: (labels: Record<string, string>) => boolean): Line[] =>
  qs.map((q) => ({
    legend: `p${Math.round(q * 100)}`,
    values: scrapes.map((scrape, i) => {
      const from = scrapes[Math.max(0, i - WINDOW)];
      if (!from || from === scrape) return null;
      const now = sumBy(scrape, `${name}_bucket`, ['le'], where);
      const before = sumBy(from, `${name}_bucket`, ['le'], where);
      return quantile(q, new Map([...now].map(([le, count]) => [le, count - (before.get(le) ?? 0)])));
    }),
  }));

/**
 * The panels of infra/grafana/pubstream.json, by title, each evaluated here the way its PromQL
 * does over the scrapes (the screenshot is not Grafana: see scripts/grafana/main.ts).
 */
export const evaluatePanels = (scrapes: readonly Scrape[]): Record<string, Line[]> => {
  const api = (labels: Record<string, string>) => labels.app === 'api';
  return {
    'Open /subscribe streams': gauge(scrapes, 'pubstream_sse_streams', ['state']),
    'SSE frames sent /s': rate(scrapes, 'pubstream_sse_frames_sent_total', []).map((line) => ({ ...line, legend: 'frames/s' })),
    'Fanout latency': histogramQuantile(scrapes, 'pubstream_sse_fanout_latency_seconds', [0.5, 0.99]),
    'Slow-consumer cuts': rate(scrapes, 'pubstream_sse_slow_consumer_cuts_total', []).map((line) => ({ legend: 'cuts / 5 min', values: line.values.map((v) => (v === null ? null : v * 300)) })),
    'Projector lag (positions)': gauge(scrapes, 'pubstream_projector_lag_positions', ['cursor']),
    'Projector lag (seconds)': gauge(scrapes, 'pubstream_projector_lag_seconds', ['cursor']),
    'Rate-limit refusals /s by reason': rate(scrapes, 'pubstream_rate_limit_refusals_total', ['reason']),
    'Redis / Kafka errors /s': rate(scrapes, 'pubstream_backend_errors_total', ['backend', 'kind']),
    'Requests /s by status': rate(scrapes, 'http_requests_total', ['status'], api),
    'Request latency p99 by route': ['/public/data/:dataId', '/public/collections/:slug/data', '/public/batch'].map((route) => ({
      ...(histogramQuantile(scrapes, 'http_request_duration_seconds', [0.99], (labels) => api(labels) && labels.route === route)[0] as Line),
      legend: route,
    })),
    'Active projector': gauge(scrapes, 'pubstream_projector_active', []),
    'Log head position': gauge(scrapes, 'pubstream_projector_head_position', []),
  };
};
