import { collectionDecider, ServiceUnavailableError } from '@pubstream/domain';
import { PartialAppendError, type AppendResult, type EventToAppend, type StreamAppend } from '@pubstream/event-store';
import { describe, expect, it } from 'vitest';
import { appendDecision, repairRecord, type AppendDeps } from './appendDecision.js';
import { decideCommand } from './decideCommand.js';
import { idempotencyStreamOf } from './idempotency.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z'), newId: () => 'new-id' };
const decision = decideCommand(collectionDecider, 'collection-books', [], { type: 'CreateCollection', slug: 'books', name: 'Books', sortableFields: [] }, { idempotencyKey: 'k' }, clock);
const record = () => ({ type: 'RecordRequest' as const, fingerprint: 'f'.repeat(64), method: 'POST', path: '/admin/collections', response: { status: 201, body: null } });

/** Records every call; `appendAll` answers with `answer`. */
const storeAnswering = (answer: (batch: readonly StreamAppend[]) => Promise<AppendResult[]>) => {
  const calls: { single: { streamName: string; events: readonly EventToAppend[] }[]; all: (readonly StreamAppend[])[] } = { single: [], all: [] };
  const eventStore: AppendDeps['eventStore'] = {
    async appendToStream(streamName, events) {
      calls.single.push({ streamName, events });
      return { nextRevision: 0, position: 5 };
    },
    async appendAll(batch) {
      calls.all.push(batch);
      return answer(batch);
    },
  };
  return { deps: { eventStore, now: clock.now }, calls };
};

describe('appendDecision', () => {
  it('without a request to bind, appends to the stream alone with its expected revision', async () => {
    const { deps, calls } = storeAnswering(async () => []);
    expect(await appendDecision(deps, 'collection-books', decision, { idempotencyKey: 'k' })).toBe(5);
    expect(calls.single).toEqual([{ streamName: 'collection-books', events: decision.toAppend }]);
    expect(calls.all).toEqual([]);
  });

  it('with one, appends the write then its record in one appendAll, and answers the write position', async () => {
    const { deps, calls } = storeAnswering(async (batch) => batch.map((_, index) => ({ nextRevision: 0, position: 10 + index })));
    expect(await appendDecision(deps, 'collection-books', decision, { idempotencyKey: 'k', record })).toBe(10);
    expect(calls.all[0]?.map((entry) => [entry.streamName, entry.expectedRevision])).toEqual([
      ['collection-books', 'no_stream'],
      [idempotencyStreamOf('k'), 'no_stream'],
    ]);
  });

  it('a store that wrote the write but not its record: the write stands at its position', async () => {
    const { deps } = storeAnswering(async () => {
      throw new PartialAppendError([{ nextRevision: 0, position: 12 }], new ServiceUnavailableError('down'));
    });
    expect(await appendDecision(deps, 'collection-books', decision, { idempotencyKey: 'k', record })).toBe(12);
  });

  it('a failure before anything was written surfaces', async () => {
    const { deps } = storeAnswering(async () => {
      throw new ServiceUnavailableError('down');
    });
    await expect(appendDecision(deps, 'collection-books', decision, { idempotencyKey: 'k', record })).rejects.toMatchObject({ status: 503 });
  });
});

describe('repairRecord', () => {
  it('binds the key of a replayed write, and shrugs off a failure (the answer is the write own)', async () => {
    const failing = storeAnswering(async () => {
      throw new ServiceUnavailableError('down');
    });
    await expect(repairRecord(failing.deps, decision, { idempotencyKey: 'k', record })).resolves.toBeUndefined();
    expect(failing.calls.all[0]?.map((entry) => entry.streamName)).toEqual([idempotencyStreamOf('k')]);
    const unbound = storeAnswering(async () => []);
    await repairRecord(unbound.deps, decision, { idempotencyKey: 'k' });
    expect(unbound.calls.all).toEqual([]);
  });
});
