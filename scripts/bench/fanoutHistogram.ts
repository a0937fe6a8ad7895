/** The cumulative buckets of the API's `pubstream_sse_fanout_latency_seconds` histogram: upper bound (s) → count. */
export type HistogramBuckets = ReadonlyMap<number, number>;

const BUCKET = /^pubstream_sse_fanout_latency_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\}\s+(\d+(?:\.\d+)?)/;

/** The fanout histogram's buckets in a Prometheus text scrape (empty when absent). */
export const fanoutBuckets = (metricsText: string): HistogramBuckets => {
  const buckets = new Map<number, number>();
  for (const line of metricsText.split('\n')) {
    const match = BUCKET.exec(line);
    if (match) buckets.set(match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]), Number(match[2]));
  }
  return buckets;
};

/**
 * The upper bound (ms) of the bucket holding the p-th percentile of the observations made between
 * two scrapes: the server's own view of a write's fanout (the message reaching the hub to the end
 * of the socket writes), apart from the load generator's. NaN when nothing was observed.
 */
export const bucketPercentileMs = (before: HistogramBuckets, after: HistogramBuckets, p: number): number => {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const delta = (bound: number): number => (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
  const total = delta(Number.POSITIVE_INFINITY);
  if (!(total > 0)) return Number.NaN;
  const bound = bounds.find((b) => delta(b) >= (p / 100) * total) ?? Number.POSITIVE_INFINITY;
  return bound * 1000;
};
