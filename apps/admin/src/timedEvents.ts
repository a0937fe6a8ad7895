import { toDomainEvent, type PubstreamEvent } from '@pubstream/domain';
import { businessTime, type RecordedEvent } from '@pubstream/event-store';

/** A domain event with the business time it happened (what projections call `at`). */
export interface TimedEvent<Event> {
  readonly event: Event;
  readonly at: string;
}

/** Domain events of a stream with their times, upcast and validated; unknown event types are skipped. */
export const timedEventsOf = <Event extends PubstreamEvent>(recorded: readonly RecordedEvent[]): TimedEvent<Event>[] =>
  recorded.flatMap((entry) => {
    const event = toDomainEvent(entry);
    return event === null ? [] : [{ event: event as Event, at: businessTime(entry) }];
  });

/** Domain events of a stream, upcast and validated; unknown event types are skipped. */
export const domainEventsOf = <Event extends PubstreamEvent>(recorded: readonly RecordedEvent[]): Event[] =>
  timedEventsOf<Event>(recorded).map((timed) => timed.event);
