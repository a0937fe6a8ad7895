import type { EventStore } from '@pubstream/event-store';

/** Counting stops here: a status report must stay cheap even when a projector is far behind. */
const LAG_COUNT_CAP = 100_000;

export interface Lag {
  /** Events in (after, head], at most LAG_COUNT_CAP. */
  readonly events: number;
  /** Age of the oldest of them in seconds; 0 when there are none. */
  readonly seconds: number;
}

/** How far `after` trails `head`, in events and in seconds (positions need not be dense). */
export const measureLag = async (eventStore: EventStore, after: number, head: number, now: () => Date): Promise<Lag> => {
  if (head <= after) return { events: 0, seconds: 0 };
  let events = 0;
  let oldest: Date | null = null;
  for await (const event of eventStore.readAll({ after, until: head, maxCount: LAG_COUNT_CAP })) {
    oldest ??= event.recordedAt;
    events += 1;
  }
  const seconds = oldest ? Math.max(0, (now().getTime() - oldest.getTime()) / 1000) : 0;
  return { events, seconds };
};

/** Events in (from, to]: what a projector applied between two checkpoint samples. */
export const countEvents = async (eventStore: EventStore, from: number, to: number): Promise<number> =>
  (await measureLag(eventStore, from, to, () => new Date(0))).events;
