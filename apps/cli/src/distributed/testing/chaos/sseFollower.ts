import { EventSource } from 'eventsource';

/** The highest `n` each item reached on an EventSource stream, which reconnects by itself when the server ends it. */
export interface SseFollower {
  readonly latest: ReadonlyMap<string, number>;
  /** How many times the stream was opened (1 = never ended and reconnected). */
  opens(): number;
  close(): void;
}

/** Follows `url` (a /subscribe stream) with the `eventsource` package, as a browser's EventSource would. */
export const followStream = (url: string): SseFollower => {
  const latest = new Map<string, number>();
  const source = new EventSource(url);
  let opens = 0;
  source.addEventListener('open', () => opens++);
  source.addEventListener('update', (event) => {
    const update = JSON.parse(event.data) as { dataId?: unknown; data?: { n?: unknown } };
    if (typeof update.dataId !== 'string' || typeof update.data?.n !== 'number') return;
    latest.set(update.dataId, Math.max(latest.get(update.dataId) ?? -1, update.data.n));
  });
  return { latest, opens: () => opens, close: () => source.close() };
};
