import { ConcurrencyError, collectionDecider, idempotencyDecider, itemDecider } from '@pubstream/domain';
import type { AppendResult, EventStore, EventToAppend, RecordedEvent, StreamAppend } from '@pubstream/event-store';
import { describe, expect, it } from 'vitest';
import { createCommandHandler } from './commandHandler.js';
import { idempotencyStreamOf, idempotentEventId } from './idempotency.js';

/** Just enough of an event store for one stream, with a switch to make appends conflict. */
const fakeStore = (conflicts: number) => {
  const events: RecordedEvent[] = [];
  let failuresLeft = conflicts;
  let appends = 0;
  const store = {
    async readStream(streamName: string) {
      return events.filter((event) => event.streamName === streamName);
    },
    async appendToStream(streamName: string, toAppend: readonly EventToAppend[], options: { expectedRevision: unknown }): Promise<AppendResult> {
      appends++;
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new ConcurrencyError(streamName, String(options.expectedRevision), 'later');
      }
      const stream = events.filter((event) => event.streamName === streamName);
      if (options.expectedRevision === 'no_stream' && stream.length > 0) throw new ConcurrencyError(streamName, 'no_stream', String(stream.length - 1));
      for (const event of toAppend) {
        events.push({
          eventId: event.eventId ?? `id-${events.length}`,
          streamName,
          type: event.type,
          data: event.data,
          metadata: event.metadata ?? {},
          revision: events.filter((recorded) => recorded.streamName === streamName).length,
          position: events.length + 1,
          recordedAt: new Date(0),
        });
      }
      return { nextRevision: events.filter((event) => event.streamName === streamName).length - 1, position: events.length };
    },
    // All or nothing, as SQLite does it.
    async appendAll(batch: readonly StreamAppend[]): Promise<AppendResult[]> {
      const snapshot = [...events];
      try {
        const results: AppendResult[] = [];
        for (const entry of batch) results.push(await store.appendToStream(entry.streamName, entry.events, { expectedRevision: entry.expectedRevision }));
        return results;
      } catch (error) {
        events.splice(0, events.length, ...snapshot);
        throw error;
      }
    },
  } as unknown as EventStore & { appendToStream: EventStore['appendToStream'] };
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
    const first = await handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k1' });
    expect(events[0]?.eventId).toBe(idempotentEventId('k1', 'collection-books', 0));
    expect(events[0]?.metadata).toMatchObject({ idempotencyKey: 'k1' });
    // Without the key the same command would be a 409 (exists); with it, it is a replay of the first.
    const retry = await handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k1' });
    expect(retry).toEqual({ ...first, replayed: true });
    expect(appends()).toBe(1);
    await expect(handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] })).rejects.toMatchObject({ status: 409 });
  });

  it('replays a keyed write as its first attempt left the stream, with the times of its events', async () => {
    const { store } = fakeStore(0);
    const handler = handlerOn(store);
    const put = (data: Record<string, unknown>, idempotencyKey?: string) =>
      handler.handle(itemDecider, 'item-dune', { type: 'PutItem', id: '00000000-0000-4000-8000-000000000001', dataId: 'dune', collection: 'books', data }, { idempotencyKey });
    await put({ v: 1 });
    const keyed = await put({ v: 2 }, 'k2');
    await put({ v: 3 });
    const retry = await put({ v: 2 }, 'k2');
    expect(retry).toMatchObject({ replayed: true, position: keyed.position, events: [{ type: 'ItemUpdated', data: { data: { v: 2 } } }] });
    expect(retry.state).toMatchObject({ status: 'active', data: { v: 2 } });
    expect(retry.history.map((timed) => timed.at)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  });

  it('appends the idempotency record with the write, and leaves a conflict on it to the caller', async () => {
    const { store, events } = fakeStore(0);
    const handler = handlerOn(store);
    const record = () => ({ type: 'RecordRequest' as const, fingerprint: 'a'.repeat(64), method: 'POST', path: '/admin/collections', response: { status: 201, body: { slug: 'books' } } });
    const outcome = await handler.handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k3', record });
    expect(outcome.position).toBe(1);
    expect(events.map((event) => [event.streamName, event.type])).toEqual([
      ['collection-books', 'CollectionCreated'],
      [idempotencyStreamOf('k3'), 'IdempotentRequestRecorded'],
    ]);
    expect(await handler.load(idempotencyDecider, idempotencyStreamOf('k3'))).toMatchObject({ status: 'recorded', response: { status: 201 } });
    // The key is taken: a write under it on another stream fails on the record, and writes nothing.
    const other = handler.handle(collectionDecider, 'collection-films', { ...command, slug: 'films', sortableFields: [] }, { idempotencyKey: 'k3', record });
    await expect(other).rejects.toMatchObject({ streamName: idempotencyStreamOf('k3') });
    expect(events).toHaveLength(2);
  });
});
