import { collectionDecider, idempotencyDecider, ServiceUnavailableError } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { idempotencyStreamOf } from './idempotency.js';
import { createWriteWorld } from './testing/writeWorld.js';
import type { RequestBinding } from './writeOutcome.js';

const create = { type: 'CreateCollection' as const, slug: 'books', name: 'Books', sortableFields: [] };
const answer = (decided: { events: readonly { type: string }[] }) => ({ value: { secret: 'raw', events: decided.events.length }, created: true });
const binding: RequestBinding<{ secret: string | null; events: number }> = {
  fingerprint: 'f'.repeat(64),
  method: 'POST',
  path: '/admin/collections',
  answer: (result) => ({ status: 201, body: result.value }),
};

describe('writeCommand', () => {
  it('answers from the decision, with the position, after waiting for the read model at that position', async () => {
    const world = createWriteWorld();
    const written = await world.write(collectionDecider, 'collection-books', create, {}, answer);
    expect(written).toEqual({ value: { secret: 'raw', events: 1 }, created: true, replayed: false, position: 1, visible: true });
    expect(world.waited).toEqual([1]);
  });

  it('reports a write the read model did not confirm as committed but not visible (202)', async () => {
    const world = createWriteWorld();
    world.visible = false;
    expect(await world.write(collectionDecider, 'collection-books', create, {}, answer)).toMatchObject({ position: 1, visible: false });
  });

  it('with a bound request, records the answer with the write, stripped of what must not be stored', async () => {
    const world = createWriteWorld();
    const strip = (result: { value: { secret: string | null; events: number }; created: boolean }) => ({ ...result, value: { ...result.value, secret: null } });
    const written = await world.write(collectionDecider, 'collection-books', create, { idempotencyKey: 'k', binding }, answer, strip);
    expect(written.value.secret).toBe('raw');
    const record = await world.commands.load(idempotencyDecider, idempotencyStreamOf('k'));
    expect(record).toMatchObject({ status: 'recorded', response: { status: 201, body: { secret: null, events: 1 } } });
  });

  it('replays an exact retry without appending, and says so', async () => {
    const world = createWriteWorld();
    await world.write(collectionDecider, 'collection-books', create, { idempotencyKey: 'k' }, answer);
    const retry = await world.write(collectionDecider, 'collection-books', create, { idempotencyKey: 'k' }, answer);
    expect(retry).toMatchObject({ replayed: true, position: 1, value: { events: 1 } });
    expect(world.log).toHaveLength(1);
  });

  it('a write the log refuses fails as it failed, and waits for nothing', async () => {
    const world = createWriteWorld();
    world.fail(new ServiceUnavailableError('The event store is unavailable'));
    await expect(world.write(collectionDecider, 'collection-books', create, {}, answer)).rejects.toMatchObject({ status: 503 });
    expect([world.log, world.waited]).toEqual([[], []]);
  });
});
