import type { RecordedEvent } from './eventStore.js';

/**
 * When an event happened, as ISO 8601 UTC: its `metadata.occurredAt` when valid, else when the
 * store recorded it. Projections and the admin's answers both use it, so a write's answer shows
 * the same createdAt/updatedAt as the read model will (docs/decisions.md, "Event time").
 */
export const businessTime = (recorded: Pick<RecordedEvent, 'metadata' | 'recordedAt'>): string => {
  const occurredAt = recorded.metadata.occurredAt;
  if (typeof occurredAt === 'string') {
    const date = new Date(occurredAt);
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return recorded.recordedAt.toISOString();
};
