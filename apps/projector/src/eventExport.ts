import type { EventStore, EventToAppend, RecordedEvent, StreamAppend } from '@pubstream/event-store';

/** One exported event: everything needed to follow the log or to re-import it elsewhere. */
export interface ExportedEvent {
  readonly position: number;
  readonly streamName: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  /** As stored (not upcast): `metadata.schemaVersion` says which schema it follows. */
  readonly data: unknown;
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: string;
}

export interface ExportOptions {
  readonly eventStore: EventStore;
  /** Events after this position (default 0: from the start). */
  readonly from?: number;
  /** Up to and including this position (default: the head when the export starts). */
  readonly to?: number;
  /** Only these event types. */
  readonly types?: readonly string[];
}

const toExported = (e: RecordedEvent): ExportedEvent => ({
  position: e.position,
  streamName: e.streamName,
  revision: e.revision,
  eventId: e.eventId,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  recordedAt: e.recordedAt.toISOString(),
});

/**
 * The log in position order for data teams (`pubstream events export`): a range, optionally
 * filtered by type, as stored. Pair with `toNdjsonLine` for files/stdout, or with a Kafka producer
 * keyed by `entityKeyOf` so one entity's events keep their order.
 */
export async function* exportEvents(options: ExportOptions): AsyncGenerator<ExportedEvent> {
  const until = options.to ?? (await options.eventStore.headPosition());
  const types = options.types && options.types.length > 0 ? new Set(options.types) : null;
  for await (const event of options.eventStore.readAll({ after: options.from ?? 0, until })) {
    if (!types || types.has(event.type)) yield toExported(event);
  }
}

/** One NDJSON line (with its newline). */
export const toNdjsonLine = (event: ExportedEvent): string => `${JSON.stringify(event)}\n`;

/** The entity an event belongs to, as a message key: its stream (`item-a1`, `apikey-k`, `project`). */
export const entityKeyOf = (event: ExportedEvent): string => event.streamName;

/**
 * Appends exported events to `eventStore`, in their order, keeping event ids (so importing the
 * same export twice appends nothing new) and metadata (so projections reproduce timestamps).
 * Returns how many events were offered. Batches are appended with `appendToStreams`.
 */
export const importEvents = async (eventStore: EventStore, events: AsyncIterable<ExportedEvent> | Iterable<ExportedEvent>, batchSize = 500): Promise<number> => {
  let count = 0;
  let batch: StreamAppend[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const outcomes = await eventStore.appendToStreams(batch);
    const failed = outcomes.find((o) => !o.ok);
    if (failed && !failed.ok) throw failed.error;
    batch = [];
  };
  for await (const event of events) {
    const toAppend: EventToAppend = { eventId: event.eventId, type: event.type, data: event.data, metadata: event.metadata };
    const last = batch.at(-1);
    // Consecutive events of one stream go in one entry; order across streams is kept.
    if (last && last.streamName === event.streamName) batch[batch.length - 1] = { ...last, events: [...last.events, toAppend] };
    else batch.push({ streamName: event.streamName, events: [toAppend], expectedRevision: 'any' });
    count += 1;
    if (count % batchSize === 0) await flush();
  }
  await flush();
  return count;
};

/** Parses NDJSON lines of `toNdjsonLine` back into events (blank lines are skipped). */
export async function* parseNdjsonEvents(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<ExportedEvent> {
  for await (const line of lines) {
    if (line.trim() === '') continue;
    yield JSON.parse(line) as ExportedEvent;
  }
}
