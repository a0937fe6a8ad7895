/** Something holding unsent bytes: a stream's socket buffer plus the deltas queued behind it. */
export interface UnsentHolder {
  readonly boundedBytes: number;
}

/**
 * The holders to cut so that the others hold at most `budgetBytes` in all: the biggest first, so
 * that the fewest streams go and the ones that keep up (holding next to nothing) stay.
 */
export const overBudget = <T extends UnsentHolder>(holders: Iterable<T>, budgetBytes: number): T[] => {
  let total = 0;
  const holding: { holder: T; bytes: number }[] = [];
  for (const holder of holders) {
    const bytes = holder.boundedBytes;
    if (bytes <= 0) continue;
    total += bytes;
    holding.push({ holder, bytes });
  }
  if (total <= budgetBytes) return [];
  holding.sort((a, b) => b.bytes - a.bytes);
  const cut: T[] = [];
  for (const { holder, bytes } of holding) {
    if (total <= budgetBytes) break;
    cut.push(holder);
    total -= bytes;
  }
  return cut;
};

/**
 * Checks the process's budget of unsent bytes every `intervalMs` (docs/subscriptions.md, "Bounded
 * buffers") and hands the holders over it to `cut`. Each stream is also bounded by itself; the
 * budget is what keeps a thousand stalled readers from adding up to a thousand bounds.
 */
export const watchUnsentBudget = <T extends UnsentHolder>(options: {
  budgetBytes: number;
  intervalMs: number;
  holders: () => Iterable<T>;
  cut: (holders: T[]) => void;
}): (() => void) => {
  const timer = setInterval(() => {
    const over = overBudget(options.holders(), options.budgetBytes);
    if (over.length > 0) options.cut(over);
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
};
