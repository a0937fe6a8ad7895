import type { ItemCommand } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { createItemWriter } from './itemWriter.js';
import { createWriteWorld } from './testing/writeWorld.js';

const put = (dataId: string, data: Record<string, unknown>): ItemCommand => ({ type: 'PutItem', id: `00000000-0000-4000-8000-0000000000${dataId.length}0`, dataId, collection: 'books', data });

const setup = () => {
  const world = createWriteWorld();
  let appendCalls = 0;
  let staleReads = new Set<string>();
  const eventStore = {
    // A stream listed in `staleReads` is read once as empty: another writer appended meanwhile.
    readStream: async (streamName: string) => (staleReads.delete(streamName) ? [] : world.store.readStream(streamName)),
    appendToStreams: async (batch: Parameters<typeof world.store.appendToStreams>[0]) => {
      appendCalls++;
      return world.store.appendToStreams(batch);
    },
  };
  const writeItems = createItemWriter({ eventStore, commands: world.commands });
  return { world, writeItems, appendCalls: () => appendCalls, staleOnce: (streams: string[]) => (staleReads = new Set(streams)) };
};

describe('itemWriter', () => {
  it('writes many items in one append, each with its own outcome', async () => {
    const { writeItems, appendCalls } = setup();
    const outcomes = await writeItems([{ command: put('a', { v: 1 }) }, { command: put('bb', { v: 1 }) }]);
    expect(outcomes.map((outcome) => outcome.ok && [outcome.change, outcome.position])).toEqual([
      ['created', 1],
      ['created', 2],
    ]);
    expect(appendCalls()).toBe(1);
  });

  it('an unchanged item appends nothing, a refused one fails alone, and the others are written', async () => {
    const { writeItems, world } = setup();
    await writeItems([{ command: put('a', { v: 1 }) }]);
    const outcomes = await writeItems([
      { command: put('a', { v: 1 }) },
      { command: { type: 'DeleteItem', dataId: 'missing', collection: 'books' } },
      { command: put('bb', { v: 2 }) },
    ]);
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.change : outcome.error.message))).toEqual(['unchanged', expect.stringContaining('not found'), 'created']);
    expect(world.log.map((event) => event.streamName)).toEqual(['item-a', 'item-bb']);
  });

  it('an item that meets a concurrent write is decided again on its own', async () => {
    const { writeItems, staleOnce } = setup();
    await writeItems([{ command: put('a', { v: 1 }) }]);
    staleOnce(['item-a']);
    const [outcome] = await writeItems([{ command: put('a', { v: 2 }) }]);
    expect(outcome).toMatchObject({ ok: true, change: 'updated', state: { data: { v: 2 } } });
  });
});
