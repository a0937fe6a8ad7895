/** One scrape of Prometheus text: series (name + sorted labels) to value. */
export interface Scrape {
  readonly at: number;
  readonly series: ReadonlyMap<string, { name: string; labels: Record<string, string>; value: number }>;
}

/** Parses the Prometheus text format (enough of it: no timestamps, no escaped quotes). */
export const parseScrape = (text: string, at: number): Scrape => {
  const series = new Map<string, { name: string; labels: Record<string, string>; value: number }>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']));
    series.set(line.slice(0, line.lastIndexOf(' ')), { name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return { at, series };
};

/** Sum of a metric's series grouped by some labels. */
export const sumBy = (scrape: Scrape, name: string, by: readonly string[], where: (labels: Record<string, string>) => boolean = () => true): Map<string, number> => {
  const groups = new Map<string, number>();
  for (const { name: n, labels, value } of scrape.series.values()) {
    if (n !== name || !where(labels)) continue;
    const key = by.map((label) => labels[label] ?? '').join(' ');
    groups.set(key, (groups.get(key) ?? 0) + value);
  }
  return groups;
};

/** The quantile of a histogram from bucket counts (cumulative, by `le`), as histogram_quantile does. */
export const quantile = (q: number, buckets: ReadonlyMap<string, number>): number | null => {
  const sorted = [...buckets].map(([le, count]) => ({ le: le === '+Inf' ? Infinity : Number(le), count })).sort((a, b) => a.le - b.le);
  const total = sorted.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let previous = { le: 0, count: 0 };
  for (const bucket of sorted) {
    if (bucket.count >= rank) {
      if (bucket.le === Infinity) return previous.le;
      const inBucket = bucket.count - previous.count;
      return previous.le + (bucket.le - previous.le) * (inBucket > 0 ? (rank - previous.count) / inBucket : 0);
    }
    previous = bucket;
  }
  return null;
};
