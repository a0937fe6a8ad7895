import type { EventRow } from './sqliteSchema.js';
import type { RecordedEvent } from './eventStore.js';

/** Turns a stored row back into the port's event (data and metadata are JSON text). */
export const rowToRecordedEvent = (row: EventRow): RecordedEvent => ({
  eventId: row.event_id,
  streamName: row.stream_name,
  type: row.type,
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  revision: row.revision,
  position: row.position,
  recordedAt: new Date(row.recorded_at),
});
