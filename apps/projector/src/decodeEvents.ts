import { toDomainEvent } from '@pubstream/domain';
import type { RecordedEvent } from '@pubstream/event-store';
import type { ProjectedEvent } from './projections/projection.js';

/** Why an event was left out of the projections. */
export interface SkippedEvent {
  readonly position: number;
  readonly type: string;
  readonly reason: 'unknown-type' | 'invalid';
  readonly error?: unknown;
}

const businessTime = (recorded: RecordedEvent): string => {
  const occurredAt = recorded.metadata.occurredAt;
  if (typeof occurredAt === 'string') {
    const date = new Date(occurredAt);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return recorded.recordedAt.toISOString();
};

/**
 * Upcasts and validates recorded events for the projections. Unknown types (newer writers) and
 * events that fail validation are skipped and reported through `onSkip`: a bad event must not
 * stop the projector forever.
 */
export const decodeEvents = (recorded: readonly RecordedEvent[], onSkip: (skipped: SkippedEvent) => void = () => {}): ProjectedEvent[] => {
  const decoded: ProjectedEvent[] = [];
  for (const r of recorded) {
    try {
      const event = toDomainEvent(r);
      if (!event) {
        onSkip({ position: r.position, type: r.type, reason: 'unknown-type' });
        continue;
      }
      decoded.push({ event, revision: r.revision, position: r.position, at: businessTime(r) });
    } catch (error) {
      onSkip({ position: r.position, type: r.type, reason: 'invalid', error });
    }
  }
  return decoded;
};
