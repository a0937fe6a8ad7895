import { sleep } from '@pubstream/testing';

/** What a projector's /metrics says (docs/projections.md, watching a projector). */
export interface ProjectorReading {
  readonly active: boolean;
  readonly applied: number;
  readonly published: number;
  readonly publishRetrying: boolean;
}

/**
 * The value of one series in a Prometheus text exposition: the first sample named `name` whose
 * labels include `labels` (other labels, such as the registry's `app`, are ignored).
 */
export const seriesValue = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[3]);
  }
  return undefined;
};

/** Scrapes a projector's /metrics (bounded to 1 s); null when it does not answer. */
export const scrapeProjector = async (url: string): Promise<ProjectorReading | null> => {
  try {
    const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(1_000) });
    if (!response.ok) return null;
    const text = await response.text();
    return {
      active: seriesValue(text, 'pubstream_projector_active') === 1,
      applied: seriesValue(text, 'pubstream_projector_position', { cursor: 'applied' }) ?? -1,
      published: seriesValue(text, 'pubstream_projector_position', { cursor: 'published' }) ?? -1,
      publishRetrying: seriesValue(text, 'pubstream_projector_publish_retrying') === 1,
    };
  } catch {
    return null;
  }
};

export interface ActiveSample {
  /** ms since the watch started. */
  readonly at: number;
  /** Per projector (in the order given): whether it reported itself active; null = no answer. */
  readonly active: (boolean | null)[];
  /** Per projector: its whole reading; null = no answer. */
  readonly readings: (ProjectorReading | null)[];
}

export interface ActiveWatch {
  readonly samples: ActiveSample[];
  /** The longest stretch during which two or more projectors reported active, in ms. */
  longestOverlapMs(): number;
  /** Per projector, how many samples reported it active. */
  activeCounts(): number[];
  stop(): Promise<void>;
}

/**
 * Scrapes every projector's `pubstream_projector_active` every `everyMs` until stopped, to tell
 * how long two of them believed themselves active at once (issue 23's fencing check).
 */
export const watchActiveProjectors = (urls: readonly string[], everyMs = 100): ActiveWatch => {
  const samples: ActiveSample[] = [];
  const started = Date.now();
  let running = true;
  const loop = (async () => {
    while (running) {
      const readings = await Promise.all(urls.map(scrapeProjector));
      samples.push({ at: Date.now() - started, active: readings.map((r) => (r === null ? null : r.active)), readings });
      await sleep(everyMs);
    }
  })();
  return {
    samples,
    longestOverlapMs() {
      let longest = 0;
      let since: number | null = null;
      for (const sample of samples) {
        const overlapping = sample.active.filter((a) => a === true).length >= 2;
        if (overlapping && since === null) since = sample.at;
        if (!overlapping && since !== null) {
          longest = Math.max(longest, sample.at - since);
          since = null;
        }
      }
      const last = samples.at(-1);
      return since !== null && last ? Math.max(longest, last.at - since) : longest;
    },
    activeCounts: () => urls.map((_, i) => samples.filter((s) => s.active[i] === true).length),
    async stop() {
      running = false;
      await loop;
    },
  };
};
