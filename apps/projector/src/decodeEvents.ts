import { toDomainEvent } from '@pubstream/domain';
import { businessTime, type RecordedEvent } from '@pubstream/event-store';
import type { ProjectedEvent } from './projections/projection.js';

/** Why an event was left out of the projections. */
export interface SkippedEvent {
  readonly position: number;
  readonly type: string;
  readonly reason: 'unknown-type' | 'invalid';
  readonly error?: unknown;
}

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
