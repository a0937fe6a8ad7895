import { START, type Position, type ReadPosition } from '@eventstore/db-client';

/**
 * EventStoreDB positions are `{commit, prepare}` byte offsets in its transaction log. The port's
 * position is a number: the commit position. Our domain appends one event per call, and for a
 * single-event append commit == prepare, so `{commit: n, prepare: n}` resumes exactly after it.
 * (Events of one multi-event append share a commit position; see docs/event-store.md.)
 */
export const toPortPosition = (position: Position): number => {
  if (position.commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(
      `EventStoreDB commit position ${position.commit} is beyond Number.MAX_SAFE_INTEGER; the event store port cannot represent it`,
    );
  }
  return Number(position.commit);
};

/** Where to start reading or subscribing for "after this port position" (0 = the start). */
export const toEsdbReadPosition = (position: number): ReadPosition => {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`Invalid event store position: ${position}`);
  if (position === 0) return START;
  const exact = BigInt(position);
  return { commit: exact, prepare: exact };
};

/** Whether two EventStoreDB positions name the same record. */
export const samePosition = (a: Position | undefined, b: Position | undefined): boolean =>
  a !== undefined && b !== undefined && a.commit === b.commit && a.prepare === b.prepare;
