/** Events per second over a sliding window, for status reports. Time is injected. */
export interface RateMeter {
  record(count: number): void;
  perSecond(): number;
}

export const createRateMeter = (now: () => Date, windowMs = 10_000): RateMeter => {
  const samples: { at: number; count: number }[] = [];
  const prune = (t: number): void => {
    while (samples.length > 0 && (samples[0]?.at ?? t) <= t - windowMs) samples.shift();
  };
  return {
    record(count) {
      const t = now().getTime();
      samples.push({ at: t, count });
      prune(t);
    },
    perSecond() {
      const t = now().getTime();
      prune(t);
      const first = samples[0];
      if (!first) return 0;
      const total = samples.reduce((sum, s) => sum + s.count, 0);
      // Over the whole window, or since the first sample when the meter is younger than that.
      const spanMs = Math.max(1_000, Math.min(windowMs, t - first.at));
      return total / (spanMs / 1000);
    },
  };
};
