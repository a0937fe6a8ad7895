import cliProgress from 'cli-progress';

/** A progress snapshot of a rebuild, in log positions (positions grow with the log). */
export interface RebuildProgress {
  /** Position the rebuild started from (its resumed checkpoint). */
  readonly from: number;
  /** Position reached. */
  readonly position: number;
  /** Log head it is catching up with (moves while writers keep writing). */
  readonly head: number;
  /** Events applied in this run. */
  readonly events: number;
  readonly eventsPerSecond: number;
  /** Estimated seconds to the head; null until a rate is known. */
  readonly etaSeconds: number | null;
}

export interface ProgressReporter {
  update(progress: RebuildProgress): void;
  done(progress: RebuildProgress): void;
}

const formatEta = (seconds: number | null): string => (seconds === null ? '?' : seconds < 1 ? '<1s' : `${Math.round(seconds)}s`);

/** One plain line per update, for logs and pipes: `rebuild 1200/5000 (24%) 850 events/s, ETA 4s`. */
export const createLineProgressReporter = (write: (line: string) => void, label = 'rebuild'): ProgressReporter => {
  const line = (p: RebuildProgress, suffix = ''): string => {
    const span = Math.max(1, p.head - p.from);
    const percent = Math.min(100, Math.floor(((p.position - p.from) / span) * 100));
    return `${label} ${p.position}/${p.head} (${percent}%) ${Math.round(p.eventsPerSecond)} events/s, ETA ${formatEta(p.etaSeconds)}${suffix}\n`;
  };
  return {
    update: (p) => write(line(p)),
    done: (p) => write(line({ ...p, etaSeconds: 0 }, `, done: ${p.events} events`)),
  };
};

/** A cli-progress bar with events/s and ETA, for terminals. */
export const createBarProgressReporter = (stream: NodeJS.WritableStream, label = 'rebuild'): ProgressReporter => {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate} events/s | ETA {eta_text}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const show = (p: RebuildProgress): void => {
    const payload = { rate: Math.round(p.eventsPerSecond), eta_text: formatEta(p.etaSeconds) };
    if (!started) {
      bar.start(p.head, p.position, payload);
      started = true;
    }
    bar.setTotal(p.head);
    bar.update(p.position, payload);
  };
  return {
    update: show,
    done(p) {
      show({ ...p, etaSeconds: 0 });
      bar.stop();
    },
  };
};

/** A bar on a terminal, plain lines otherwise (CI logs, pipes, files). */
export const createProgressReporter = (stream: NodeJS.WritableStream & { isTTY?: boolean }, label = 'rebuild'): ProgressReporter =>
  stream.isTTY ? createBarProgressReporter(stream, label) : createLineProgressReporter((line) => void stream.write(line), label);
