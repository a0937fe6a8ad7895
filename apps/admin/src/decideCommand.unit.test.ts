import { collectionDecider, itemDecider, projectDecider, type CollectionCommand } from '@pubstream/domain';
import type { EventToAppend, RecordedEvent } from '@pubstream/event-store';
import { describe, expect, it } from 'vitest';
import { decideCommand } from './decideCommand.js';
import { idempotentEventId } from './idempotency.js';
import { keyedReplay } from './keyedReplay.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z'), newId: () => 'new-id' };
const create: CollectionCommand = { type: 'CreateCollection', slug: 'books', name: 'Books', sortableFields: [] };

/** The stream as the log would hold it after appending `toAppend` at `position` onwards. */
const recorded = (streamName: string, toAppend: readonly EventToAppend[], first: { revision: number; position: number } = { revision: 0, position: 1 }): RecordedEvent[] =>
  toAppend.map((event, index) => ({
    eventId: event.eventId ?? `id-${index}`,
    streamName,
    type: event.type,
    data: event.data,
    metadata: event.metadata ?? {},
    revision: first.revision + index,
    position: first.position + index,
    recordedAt: new Date(0),
  }));

describe('decideCommand', () => {
  it('given an empty stream, decides the events to append with no_stream, the injected id and time', () => {
    const decision = decideCommand(collectionDecider, 'collection-books', [], create, {}, clock);
    expect(decision).toMatchObject({ expectedRevision: 'no_stream', replayed: false, replayPosition: null, state: { status: 'active', slug: 'books' } });
    expect(decision.toAppend).toEqual([{ eventId: 'new-id', type: 'CollectionCreated', data: expect.objectContaining({ slug: 'books' }), metadata: { occurredAt: '2026-01-01T00:00:00.000Z' } }]);
    expect(decision.history.map((timed) => [timed.event.type, timed.at])).toEqual([['CollectionCreated', '2026-01-01T00:00:00.000Z']]);
  });

  it('given a stream, expects its last revision and resolves a command given as a function of the state', () => {
    const first = decideCommand(projectDecider, 'project', [], { type: 'ChangePlan', plan: 'pro', monthlyQuota: 500 }, {}, clock);
    const stream = recorded('project', first.toAppend, { revision: 0, position: 7 });
    const decision = decideCommand(projectDecider, 'project', stream, (state) => ({ type: 'ChangePlan' as const, plan: 'business' as const, monthlyQuota: state.monthlyQuota }), {}, clock);
    expect(decision.expectedRevision).toBe(0);
    expect(decision.state).toMatchObject({ plan: 'business', monthlyQuota: 500 });
  });

  it('with an Idempotency-Key, derives the event ids from it and notes it in the metadata', () => {
    const decision = decideCommand(collectionDecider, 'collection-books', [], create, { idempotencyKey: 'k1' }, clock);
    expect(decision.toAppend[0]).toMatchObject({ eventId: idempotentEventId('k1', 'collection-books', 0), metadata: { occurredAt: '2026-01-01T00:00:00.000Z', idempotencyKey: 'k1' } });
  });

  it('when the stream holds the events of the same key, replays them: nothing to append, the first position', () => {
    const first = decideCommand(collectionDecider, 'collection-books', [], create, { idempotencyKey: 'k1' }, clock);
    const stream = recorded('collection-books', first.toAppend, { revision: 0, position: 42 });
    const later = { ...clock, now: () => new Date('2026-06-01T00:00:00Z') };
    const retry = decideCommand(collectionDecider, 'collection-books', stream, create, { idempotencyKey: 'k1' }, later);
    expect(retry).toMatchObject({ replayed: true, toAppend: [], replayPosition: 42, expectedRevision: 0, state: { status: 'active' } });
    expect(retry.events.map((event) => event.type)).toEqual(['CollectionCreated']);
  });

  it('lets the domain refuse: a second create without a key throws the conflict', () => {
    const first = decideCommand(collectionDecider, 'collection-books', [], create, {}, clock);
    expect(() => decideCommand(collectionDecider, 'collection-books', recorded('collection-books', first.toAppend), create, {}, clock)).toThrow(expect.objectContaining({ status: 409 }));
  });
});

describe('keyedReplay', () => {
  const put = (data: Record<string, unknown>) => ({ type: 'PutItem', id: '00000000-0000-4000-8000-000000000001', dataId: 'dune', collection: 'books', data }) as const;

  it('finds the events of a key amid later writes, and folds the stream only up to them', () => {
    const created = decideCommand(itemDecider, 'item-dune', [], put({ v: 1 }), {}, clock);
    let stream = recorded('item-dune', created.toAppend);
    const keyed = decideCommand(itemDecider, 'item-dune', stream, put({ v: 2 }), { idempotencyKey: 'k2' }, clock);
    stream = [...stream, ...recorded('item-dune', keyed.toAppend, { revision: 1, position: 2 })];
    const later = decideCommand(itemDecider, 'item-dune', stream, put({ v: 3 }), {}, clock);
    stream = [...stream, ...recorded('item-dune', later.toAppend, { revision: 2, position: 3 })];

    const replay = keyedReplay(itemDecider, 'item-dune', stream, 'k2');
    expect(replay).toMatchObject({ replayed: true, replayPosition: 2, state: { data: { v: 2 } } });
    expect(replay?.history).toHaveLength(2);
    expect(keyedReplay(itemDecider, 'item-dune', stream, 'another key')).toBeNull();
  });
});
