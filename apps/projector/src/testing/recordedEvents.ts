import type { RecordedEvent } from '@pubstream/event-store';
import { uuidOf } from './history.js';

/** Recorded events for unit tests of the projector's parts (no event store). */
export const recorded = (position: number, streamName: string, type: string, data: unknown, revision = 0): RecordedEvent => ({
  eventId: `e${position}`,
  streamName,
  type,
  data,
  metadata: { occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString() },
  revision,
  position,
  recordedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, position)),
});

/** ItemCreated (revision 0) or ItemUpdated (revision > 0) of `dataId` in collection `c`. */
export const itemEvent = (position: number, dataId: string, revision = 0, data: Record<string, unknown> = { n: revision }): RecordedEvent =>
  revision === 0
    ? recorded(position, `item-${dataId}`, 'ItemCreated', { id: uuidOf(position), dataId, collection: 'c', data }, 0)
    : recorded(position, `item-${dataId}`, 'ItemUpdated', { dataId, collection: 'c', data }, revision);
