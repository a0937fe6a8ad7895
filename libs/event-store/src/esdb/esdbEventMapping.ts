import { STREAM_PREFIXES } from '@pubstream/domain';
import type { AllStreamRecordedEvent, AllStreamResolvedEvent, EventData, JSONType, Position, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import type { EventToAppend, RecordedEvent } from '../eventStore.js';
import { ORIGINAL_EVENT_ID_KEY, isCanonicalUuid, uuidForEventId } from './esdbEventId.js';
import { samePosition, toPortPosition } from './esdbPosition.js';

/**
 * The port's event as the client's JSON event. Data and metadata travel as JSON; a non-UUID id is
 * replaced by its name-based UUID and kept in the metadata so reads give the caller's id back.
 */
export const toEsdbEventData = (event: EventToAppend, newEventId: () => string): EventData => {
  const eventId = event.eventId ?? newEventId();
  const uuid = uuidForEventId(eventId);
  const metadata = { ...event.metadata, ...(uuid === eventId ? {} : { [ORIGINAL_EVENT_ID_KEY]: eventId }) };
  return {
    id: uuid,
    contentType: 'application/json',
    type: event.type,
    // The client JSON-encodes data whatever its type; its JSONType is narrower than what JSON allows.
    data: (event.data ?? null) as JSONType,
    metadata,
  };
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** A recorded EventStoreDB event as the port's event. */
export const fromEsdbRecordedEvent = (recorded: EsdbRecordedEvent | AllStreamRecordedEvent): RecordedEvent => {
  const { [ORIGINAL_EVENT_ID_KEY]: originalId, ...metadata } = isPlainObject(recorded.metadata) ? recorded.metadata : {};
  return {
    eventId: typeof originalId === 'string' && !isCanonicalUuid(originalId) ? originalId : recorded.id,
    streamName: recorded.streamId,
    type: recorded.type,
    data: recorded.data as unknown,
    metadata,
    revision: Number(recorded.revision),
    // Stream reads carry positions only on servers newer than 22.6; 0 means "unknown" there.
    position: recorded.position ? toPortPosition(recorded.position) : 0,
    recordedAt: recorded.created,
  };
};

/** Ours = not a system event and in one of the streams this service writes. */
export const isPubstreamEvent = (recorded: { streamId: string; type: string }): boolean =>
  !recorded.type.startsWith('$') && STREAM_PREFIXES.some((prefix) => recorded.streamId.startsWith(prefix));

/**
 * Our events of a batch read from a `$all` subscription, as the port's events. `resumedAt` is the
 * position a resubscription started from: the server delivers that event again (reads are
 * inclusive), and it was delivered before.
 */
export const portEventsOfBatch = (batch: readonly AllStreamResolvedEvent[], resumedAt: Position | undefined): RecordedEvent[] =>
  batch.flatMap((resolved) =>
    resolved.event && isPubstreamEvent(resolved.event) && !samePosition(resolved.event.position, resumedAt) ? [fromEsdbRecordedEvent(resolved.event)] : [],
  );
