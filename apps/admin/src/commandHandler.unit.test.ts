import { ConcurrencyError, collectionDecider, idempotencyDecider, itemDecider, ServiceUnavailableError } from '@pubstream/domain';
import { PartialAppendError, type AppendResult, type EventStore, type EventToAppend, type RecordedEvent, type StreamAppend } from '@pubstream/event-store';
import { describe, expect, it } from 'vitest';
import { createCommandHandler } from './commandHandler.js';
import { idempotencyStreamOf, idempotentEventId } from './idempotency.js';

/** Just enough of an event store for one stream, with a switch to make appends conflict. */
const fakeStore = (conflicts: number, options: { atomic?: boolean; failStream?: string } = {}) => {
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
    // All or nothing, as SQLite does it; or entry after entry, as EventStoreDB does (atomic: false).
    async appendAll(batch: readonly StreamAppend[]): Promise<AppendResult[]> {
      const snapshot = [...events];
      const results: AppendResult[] = [];
      try {
        for (const entry of batch) {
          if (entry.streamName === options.failStream) throw new ServiceUnavailableError('The event store is unavailable');
          results.push(await store.appendToStream(entry.streamName, entry.events, { expectedRevision: entry.expectedRevision }));
        }
        return results;
      } catch (error) {
        if (options.atomic === false) throw results.length > 0 ? new PartialAppendError(results, error) : error;
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

  it('on a store without multi-stream transactions, a write whose record failed stands, and the keyed retry binds it', async () => {
    const recordStream = idempotencyStreamOf('k4');
    const flaky = fakeStore(0, { atomic: false, failStream: recordStream });
    const record = () => ({ type: 'RecordRequest' as const, fingerprint: 'b'.repeat(64), method: 'POST', path: '/admin/collections', response: { status: 201, body: { slug: 'books' } } });
    const first = await handlerOn(flaky.store).handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k4', record });
    expect(first).toMatchObject({ position: 1, replayed: false });
    expect(flaky.events.map((event) => event.streamName)).toEqual(['collection-books']);
    // The same log, the record stream reachable again: the retry replays the write and binds the key.
    const healed = fakeStore(0);
    healed.events.push(...flaky.events);
    const retry = await handlerOn(healed.store).handle(collectionDecider, 'collection-books', { ...command, sortableFields: [] }, { idempotencyKey: 'k4', record });
    expect(retry).toMatchObject({ position: 1, replayed: true, state: { status: 'active' } });
    expect(healed.events.map((event) => [event.streamName, event.type])).toEqual([
      ['collection-books', 'CollectionCreated'],
      [recordStream, 'IdempotentRequestRecorded'],
    ]);
  });
});
