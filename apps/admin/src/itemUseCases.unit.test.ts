import { collectionDecider } from '@pubstream/domain';
import { describe, expect, it } from 'vitest';
import { createActiveCollection } from './activeCollection.js';
import { deterministicUuid } from './idempotency.js';
import { createItemUseCases } from './itemUseCases.js';
import { createWriteWorld } from './testing/writeWorld.js';

const setup = async () => {
  const world = createWriteWorld();
  const activeCollection = createActiveCollection(world.commands);
  const stored = { id: 'i', dataId: 'dune', collectionId: 'films', data: {}, createdAt: 'c', updatedAt: 'u', version: 0, position: 0 };
  const useCases = createItemUseCases({ write: world.write, readModel: { getItem: async (dataId) => (dataId === 'dune' ? stored : null) }, activeCollection, newId: world.newId });
  for (const slug of ['books', 'films']) await world.commands.handle(collectionDecider, `collection-${slug}`, { type: 'CreateCollection', slug, name: slug, sortableFields: [] });
  return { world, useCases };
};

describe('item use cases', () => {
  it('upserts: created, then updated, then the same data again appends nothing', async () => {
    const { world, useCases } = await setup();
    const created = await useCases.putItem('books', 'dune', { year: 1965 });
    expect(created).toMatchObject({ created: true, value: { dataId: 'dune', collectionId: 'books', data: { year: 1965 }, createdAt: '2026-01-01T00:00:00.000Z' } });
    expect(await useCases.putItem('books', 'dune', { year: 1966 })).toMatchObject({ created: false, value: { data: { year: 1966 } } });
    const before = world.log.length;
    expect(await useCases.putItem('books', 'dune', { year: 1966 })).toMatchObject({ created: false, position: null });
    expect(world.log).toHaveLength(before);
  });

  it('with an Idempotency-Key, the new item id derives from it', async () => {
    const { useCases } = await setup();
    expect((await useCases.putItem('books', 'dune', {}, { idempotencyKey: 'k' })).value.id).toBe(deterministicUuid('item', 'k', 'dune'));
  });

  it('refuses a dataId of another collection (409), a bad dataId (400) and an unknown collection (404)', async () => {
    const { useCases } = await setup();
    await useCases.putItem('books', 'dune', {});
    await expect(useCases.putItem('films', 'dune', {})).rejects.toMatchObject({ status: 409, message: 'dataId "dune" already belongs to collection "books"' });
    await expect(useCases.putItem('books', '-bad', {})).rejects.toMatchObject({ status: 400, message: 'Invalid dataId format' });
    await expect(useCases.putItem('zines', 'dune', {})).rejects.toMatchObject({ status: 404 });
  });

  it('reads an item only through its own collection, and deletes it', async () => {
    const { useCases } = await setup();
    expect(await useCases.getItem('films', 'dune')).toEqual({ id: 'i', dataId: 'dune', collectionId: 'films', data: {}, createdAt: 'c', updatedAt: 'u' });
    await expect(useCases.getItem('books', 'dune')).rejects.toMatchObject({ status: 404 });
    await useCases.putItem('books', 'solaris', {});
    expect(await useCases.deleteItem('books', 'solaris')).toMatchObject({ value: null, created: false });
    await expect(useCases.deleteItem('books', 'solaris')).rejects.toMatchObject({ status: 404 });
  });
});
