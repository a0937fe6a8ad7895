import type { AllStreamRecordedEvent, AllStreamResolvedEvent, EventData } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { isCanonicalUuid, uuidForEventId } from './esdbEventId.js';
import { fromEsdbRecordedEvent, isPubstreamEvent, portEventsOfBatch, toEsdbEventData } from './esdbEventMapping.js';

const created = new Date('2026-01-02T03:04:05.000Z');

/** What the server would give back for an event the adapter wrote (data and metadata JSON round-tripped). */
const storedAs = (data: EventData, streamId: string, revision: bigint, commit: bigint): AllStreamRecordedEvent =>
  ({
    streamId,
    id: data.id,
    isJson: true,
    revision,
    type: data.type,
    created,
    data: JSON.parse(JSON.stringify(data.data)) as unknown,
    metadata: JSON.parse(JSON.stringify(data.metadata)) as unknown,
    position: { commit, prepare: commit },
  }) as AllStreamRecordedEvent;

describe('EventStoreDB event serialization', () => {
  it('writes a JSON event with the given UUID, type, data and metadata', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const data = toEsdbEventData({ eventId: id, type: 'ItemCreated', data: { a: [1] }, metadata: { causationId: 'x' } }, () => 'unused');
    expect(data).toEqual({ id, contentType: 'application/json', type: 'ItemCreated', data: { a: [1] }, metadata: { causationId: 'x' } });
  });

  it('round-trips an event, giving back the port fields', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const written = toEsdbEventData({ eventId: id, type: 'ItemUpdated', data: { n: 2 } }, () => 'unused');
    const read = fromEsdbRecordedEvent(storedAs(written, 'item-a', 3n, 512n));
    expect(read).toEqual({
      eventId: id,
      streamName: 'item-a',
      type: 'ItemUpdated',
      data: { n: 2 },
      metadata: {},
      revision: 3,
      position: 512,
      recordedAt: created,
    });
  });

  it('gives events without an id a new one', () => {
    expect(toEsdbEventData({ type: 'A', data: {} }, () => '6ba7b810-9dad-41d1-80b4-00c04fd430c8').id).toBe('6ba7b810-9dad-41d1-80b4-00c04fd430c8');
  });

  it('maps a non-UUID id to a stable UUID and reads the original id back', () => {
    const first = toEsdbEventData({ eventId: 'idem-key-1:item-a', type: 'A', data: {} }, () => 'unused');
    const retry = toEsdbEventData({ eventId: 'idem-key-1:item-a', type: 'A', data: {} }, () => 'unused');
    const other = toEsdbEventData({ eventId: 'idem-key-2:item-a', type: 'A', data: {} }, () => 'unused');
    expect(isCanonicalUuid(first.id)).toBe(true);
    expect(first.id).toBe(retry.id);
    expect(first.id).not.toBe(other.id);
    const read = fromEsdbRecordedEvent(storedAs(first, 'item-a', 0n, 10n));
    expect(read.eventId).toBe('idem-key-1:item-a');
    expect(read.metadata).toEqual({});
  });

  it('produces RFC 4122 version-5 layout UUIDs', () => {
    expect(uuidForEventId('anything')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidForEventId('ABC')).not.toBe(uuidForEventId('abc'));
  });

  it('reads binary or missing metadata as empty, and keeps non-object data as is', () => {
    const base = storedAs(toEsdbEventData({ eventId: uuidForEventId('x'), type: 'A', data: 'text' }, () => 'unused'), 'item-a', 0n, 1n);
    expect(fromEsdbRecordedEvent({ ...base, metadata: new Uint8Array([1]) } as AllStreamRecordedEvent).metadata).toEqual({});
    expect(fromEsdbRecordedEvent({ ...base, metadata: undefined } as AllStreamRecordedEvent).data).toBe('text');
  });

  it('uses position 0 when the server did not send one', () => {
    const base = storedAs(toEsdbEventData({ type: 'A', data: {} }, () => uuidForEventId('y')), 'item-a', 0n, 1n);
    expect(fromEsdbRecordedEvent({ ...base, position: undefined } as unknown as AllStreamRecordedEvent).position).toBe(0);
  });
});

describe('which $all events are ours', () => {
  it('keeps our streams and drops system events and foreign streams', () => {
    expect(isPubstreamEvent({ streamId: 'item-a', type: 'ItemCreated' })).toBe(true);
    expect(isPubstreamEvent({ streamId: 'collection-posts', type: 'CollectionCreated' })).toBe(true);
    expect(isPubstreamEvent({ streamId: 'project', type: 'PlanChanged' })).toBe(true);
    expect(isPubstreamEvent({ streamId: 'apikey-k1', type: 'ApiKeyCreated' })).toBe(true);
    expect(isPubstreamEvent({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })).toBe(false);
    expect(isPubstreamEvent({ streamId: 'item-a', type: '$metadata' })).toBe(false);
    expect(isPubstreamEvent({ streamId: 'orders-1', type: 'OrderPlaced' })).toBe(false);
  });
});

describe('a batch from a $all subscription', () => {
  const resolved = (streamId: string, commit: number, type = 'ItemUpdated'): AllStreamResolvedEvent => ({
    event: storedAs(toEsdbEventData({ eventId: `e${commit}`, type, data: { commit } }, () => 'unused'), streamId, 0n, BigInt(commit)),
  }) as AllStreamResolvedEvent;

  it('keeps our events in order, as the port\'s events', () => {
    const batch = [resolved('item-a', 10), resolved('$stats', 11, '$statsCollected'), resolved('orders-1', 12), resolved('item-b', 13), {} as AllStreamResolvedEvent];
    expect(portEventsOfBatch(batch, undefined).map((e) => [e.eventId, e.position])).toEqual([
      ['e10', 10],
      ['e13', 13],
    ]);
  });

  it('drops the event at the position a resubscription started from: it was delivered before', () => {
    const batch = [resolved('item-a', 10), resolved('item-b', 13)];
    expect(portEventsOfBatch(batch, { commit: 10n, prepare: 10n }).map((e) => e.position)).toEqual([13]);
  });
});
