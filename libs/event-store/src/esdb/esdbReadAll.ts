import { BACKWARDS, END, FORWARDS, type EventStoreDBClient, type Position, type ReadPosition } from '@eventstore/db-client';
import type { ReadAllOptions, RecordedEvent } from '../eventStore.js';
import { toPortError } from './esdbErrors.js';
import { fromEsdbRecordedEvent, isPubstreamEvent } from './esdbEventMapping.js';
import { samePosition, toEsdbReadPosition, toPortPosition } from './esdbPosition.js';

type ReadAllClient = Pick<EventStoreDBClient, 'readAll'>;

/**
 * Our events of `$all` in order, read page by page (never the whole log at once). A page starts
 * at the last record of the previous one (reads are inclusive), which is skipped. System events
 * and other applications' streams are left out; `maxCount` counts only what is returned.
 */
export async function* readAllFromEsdb(client: ReadAllClient, options: ReadAllOptions, pageSize: number): AsyncGenerator<RecordedEvent> {
  const after = options.after ?? 0;
  const until = options.until ?? Number.POSITIVE_INFINITY;
  let remaining = options.maxCount ?? Number.POSITIVE_INFINITY;
  let from: ReadPosition = toEsdbReadPosition(after);
  let previous: Position | undefined;
  while (remaining > 0) {
    let seen = 0;
    try {
      for await (const resolved of client.readAll({ fromPosition: from, maxCount: pageSize, direction: FORWARDS })) {
        seen += 1;
        const recorded = resolved.event;
        if (!recorded || samePosition(recorded.position, previous)) continue;
        previous = recorded.position;
        const position = toPortPosition(recorded.position);
        if (position <= after) continue;
        if (position > until) return;
        if (!isPubstreamEvent(recorded)) continue;
        yield fromEsdbRecordedEvent(recorded);
        remaining -= 1;
        if (remaining <= 0) return;
      }
    } catch (error) {
      throw toPortError(error);
    }
    if (seen < pageSize || !previous) return;
    from = previous;
  }
}

/**
 * Position of our last event: `$all` read backwards, skipping system and foreign events (the very
 * last record is often a system event that our subscriptions never deliver). 0 when there is none.
 */
export const esdbHeadPosition = async (client: ReadAllClient, pageSize: number): Promise<number> => {
  let from: ReadPosition = END;
  let previous: Position | undefined;
  for (;;) {
    let seen = 0;
    try {
      for await (const resolved of client.readAll({ fromPosition: from, maxCount: pageSize, direction: BACKWARDS })) {
        seen += 1;
        const recorded = resolved.event;
        if (!recorded || samePosition(recorded.position, previous)) continue;
        previous = recorded.position;
        if (isPubstreamEvent(recorded)) return toPortPosition(recorded.position);
      }
    } catch (error) {
      throw toPortError(error);
    }
    if (seen < pageSize || !previous) return 0;
    from = previous;
  }
};
