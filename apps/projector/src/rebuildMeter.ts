import type { ProgressReporter, RebuildProgress } from './rebuildProgress.js';

/** Where a rebuild stands, and its progress reports (throttled). Time is injected. */
export interface RebuildMeter {
  /** Position reached and events applied; `head` moves while writers keep writing. */
  position: number;
  head: number;
  events: number;
  snapshot(): RebuildProgress;
  /** Reports to the progress reporter, at most once per `everyMs` unless forced. */
  report(force?: boolean): void;
}

export const createRebuildMeter = (options: {
  resumedFrom: number;
  head: number;
  now: () => Date;
  progress?: ProgressReporter | undefined;
  everyMs?: number | undefined;
}): RebuildMeter => {
  const { resumedFrom, now } = options;
  const startedAt = now().getTime();
  let lastReport = 0;
  const meter: RebuildMeter = {
    position: resumedFrom,
    head: options.head,
    events: 0,
    snapshot() {
      const elapsed = Math.max(0.001, (now().getTime() - startedAt) / 1000);
      const positionsPerSecond = (meter.position - resumedFrom) / elapsed;
      const etaSeconds = positionsPerSecond > 0 ? Math.max(0, meter.head - meter.position) / positionsPerSecond : null;
      return { from: resumedFrom, position: meter.position, head: meter.head, events: meter.events, eventsPerSecond: meter.events / elapsed, etaSeconds };
    },
    report(force = false) {
      const t = now().getTime();
      if (!options.progress || (!force && t - lastReport < (options.everyMs ?? 500))) return;
      lastReport = t;
      options.progress.update(meter.snapshot());
    },
  };
  return meter;
};
