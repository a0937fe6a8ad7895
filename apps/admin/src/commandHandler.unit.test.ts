import { ConcurrencyError, collectionDecider } from '@pubstream/domain';
import type { AppendResult, EventStore, EventToAppend, RecordedEvent } from '@pubstream/event-store';
import { describe, expect, it } from 'vitest';
import { createCommandHandler } from './commandHandler.js';
import { idempotentEventId } from './idempotency.js';

/** Just enough of an event store for one stream, with a switch to make appends conflict. */
const fakeStore = (conflicts: number) => {
  const events: RecordedEvent[] = [];
  let failuresLeft = conflicts;
  let appends = 0;
  const store = {
    async readStream() {
      return [...events];
    },
    async appendToStream(streamName: string, toAppend: readonly EventToAppend[], options: { expectedRevision: unknown }): Promise<AppendResult> {
      appends++;
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new ConcurrencyError(streamName, String(options.expectedRevision), 'later');
      }
      for (const event of toAppend) {
        events.push({
          eventId: event.eventId ?? `id-${events.length}`,
          streamName,
          type: event.type,
          data: event.data,
          metadata: event.metadata ?? {},
          revision: events.length,
          position: events.length + 1,
          recordedAt: new Date(0),
        });
      }
      return { nextRevision: events.length - 1, position: events.length };
    },
  } as unknown as EventStore;
  return { store, events, appends: () => appends };
};

const command = { type: 'CreateCollection', slug: 'books', name: 'Books', sortableFields: [] } as const;
const handlerOn = (store: EventStore) => createCommandHandler({ eventStore: store, now: () => new Date('2026-01-01T00:00:00Z'), newId: () => 'new-id', maxAttempts: 3 });

describe('command handler', () => {
  it('reads, decides and appends with metadata', async () => {
    const { store, events } = fakeStore(0);
    const outcome = await handlerOn(store).handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] });
    expect(outcome).toMatchObject({ position: 1, replayed: false, state: { status: 'active', slug: 'books' } });
    expect(events[0]).toMatchObject({ eventId: 'new-id', type: 'CollectionCreated', metadata: { occurredAt: '2026-01-01T00:00:00.000Z' } });
  });

  it('retries a concurrency conflict by reading and deciding again', async () => {
    const { store, appends } = fakeStore(2);
    const outcome = await handlerOn(store).handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] });
    expect(outcome.position).toBe(1);
    expect(appends()).toBe(3);
  });

  it('gives up with the ConcurrencyError (409) after maxAttempts', async () => {
    const { store } = fakeStore(5);
    await expect(handlerOn(store).handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] })).rejects.toMatchObject({ status: 409 });
  });

  it('with an Idempotency-Key derives event ids and replays a retry without appending', async () => {
    const { store, events, appends } = fakeStore(0);
    const handler = handlerOn(store);
    await handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k1' });
    expect(events[0]?.eventId).toBe(idempotentEventId('k1', 'collection-books', 0));
    expect(events[0]?.metadata).toMatchObject({ idempotencyKey: 'k1' });
    // Without the key the same command would be a 409 (exists); with it, it is a replay.
    const retry = await handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k1' });
    expect(retry).toMatchObject({ replayed: true, position: null, events: [] });
    expect(appends()).toBe(1);
    await expect(handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] })).rejects.toMatchObject({ status: 409 });
  });
});
