import cliProgress from 'cli-progress';

/** What the import reports as it goes. */
export interface ImportProgress {
  /** `count` more events were appended. */
  advance(count: number): void;
  stop(): void;
}

const silent: ImportProgress = { advance: () => undefined, stop: () => undefined };

/**
 * A cli-progress bar on a terminal (with a total when the input's size is known: a file), nothing
 * otherwise: a pipe, a CI log or a file gets only the final summary line.
 */
export const createImportProgress = (stream: NodeJS.WritableStream & { isTTY?: boolean }, total: number | null): ImportProgress => {
  if (!stream.isTTY) return silent;
  const format = total === null ? 'import | {value} events | {rate} events/s' : 'import [{bar}] {percentage}% | {value}/{total} events | ETA {eta}s';
  const bar = new cliProgress.SingleBar({ stream, format, hideCursor: true }, cliProgress.Presets.shades_classic);
  const startedAt = Date.now();
  let done = 0;
  bar.start(total ?? 0, 0, { rate: 0 });
  return {
    advance(count) {
      done += count;
      bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - startedAt) / 1000)) });
    },
    stop: () => bar.stop(),
  };
};
