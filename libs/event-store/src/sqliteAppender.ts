import type Database from 'better-sqlite3';
import { ConflictError } from '@pubstream/domain';
import type { AppendResult, ExpectedRevision } from './eventStore.js';
import { assertExpectedRevision } from './expectedRevision.js';
import type { PreparedEvent } from './preparedEvent.js';

interface KnownEvent {
  position: number;
  stream_name: string;
  revision: number;
}

/**
 * The append as it runs inside a transaction (the caller opens it): idempotency check, expected
 * revision check, inserts. Throws ConcurrencyError / ConflictError before writing anything.
 *
 * Idempotency: an event id already in the log is never stored again. When every id of the batch is
 * already stored in this stream (a retried append), nothing is written and the result of the
 * original append is returned — even if the stream has moved on since, so a retry after a lost
 * acknowledgement succeeds. A batch that mixes stored and new ids, or reuses an id of another
 * stream, is not a retry but a caller bug: ConflictError, nothing written.
 */
export const createSqliteAppender = (db: Database.Database, now: () => Date) => {
  const selectById = db.prepare<[string], KnownEvent>('SELECT position, stream_name, revision FROM events WHERE event_id = ?');
  const selectHead = db.prepare<[string], { revision: number; position: number }>(
    'SELECT revision, position FROM events WHERE stream_name = ? ORDER BY revision DESC LIMIT 1',
  );
  const insert = db.prepare<[string, string, number, string, string, string, number]>(
    'INSERT INTO events (event_id, stream_name, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );

  const replayOfStoredAppend = (streamName: string, events: readonly PreparedEvent[]): AppendResult | undefined => {
    const known = events.map((event) => ({ event, stored: selectById.get(event.eventId) }));
    const stored = known.flatMap((entry) => (entry.stored ? [entry.stored] : []));
    if (stored.length === 0) return undefined;
    const foreign = known.find((entry) => entry.stored && entry.stored.stream_name !== streamName);
    if (foreign?.stored) {
      throw new ConflictError(`Event id ${foreign.event.eventId} is already stored in stream ${foreign.stored.stream_name}`);
    }
    if (stored.length !== events.length) {
      throw new ConflictError(`Append to ${streamName} mixes already stored and new event ids`);
    }
    const last = stored.reduce((a, b) => (b.position > a.position ? b : a));
    return { nextRevision: last.revision, position: last.position };
  };

  return (streamName: string, events: readonly PreparedEvent[], expectedRevision: ExpectedRevision): AppendResult => {
    const replay = replayOfStoredAppend(streamName, events);
    if (replay) return replay;
    const head = selectHead.get(streamName);
    assertExpectedRevision(streamName, expectedRevision, head?.revision ?? -1);
    let revision = head?.revision ?? -1;
    let position = head?.position ?? 0;
    const recordedAt = now().getTime();
    for (const event of events) {
      revision += 1;
      const info = insert.run(event.eventId, streamName, revision, event.type, event.data, event.metadata, recordedAt);
      position = Number(info.lastInsertRowid);
    }
    return { nextRevision: revision, position };
  };
};
