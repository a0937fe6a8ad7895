import type { CollectionRecord } from '@pubstream/read-model';
import { describe, expect, it } from 'vitest';
import { createActiveCollection } from './activeCollection.js';
import { createCollectionUseCases } from './collectionUseCases.js';
import { createWriteWorld } from './testing/writeWorld.js';

const record = (slug: string): CollectionRecord => ({ slug, name: slug, sortableFields: [], createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-02-01T00:00:00.000Z', version: 0, position: 0 });

const setup = (readModel: { collections?: CollectionRecord[]; count?: () => Promise<number> } = {}) => {
  const world = createWriteWorld();
  const deletions: [string, string | undefined][] = [];
  const useCases = createCollectionUseCases({
    commands: world.commands,
    write: world.write,
    readModel: {
      getCollection: async (slug) => readModel.collections?.find((collection) => collection.slug === slug) ?? null,
      listCollections: async () => readModel.collections ?? [],
      countItems: readModel.count ?? (async () => 3),
    },
    activeCollection: createActiveCollection(world.commands),
    deleteItemsOf: async (slug, idempotencyKey) => {
      deletions.push([slug, idempotencyKey]);
      return { deletedItems: 2, position: null };
    },
    readYourWrites: async () => true,
  });
  return { world, useCases, deletions };
};

describe('collection use cases', () => {
  it('creates a collection answered from its event (no items yet), and refuses the slug twice', async () => {
    const { useCases } = setup();
    const created = await useCases.createCollection({ slug: 'books', name: 'Books', sortableFields: [{ name: 'year', type: 'number' }] });
    expect(created).toMatchObject({ created: true, position: 1, value: { slug: 'books', itemCount: 0, createdAt: '2026-01-01T00:00:00.000Z' } });
    await expect(useCases.createCollection({ slug: 'books', name: 'Again', sortableFields: [] })).rejects.toMatchObject({ status: 409 });
  });

  it('reads a collection from its stream with counts from the read model; unknown or impossible slugs are 404', async () => {
    const { useCases } = setup({ collections: [record('books')] });
    await useCases.createCollection({ slug: 'books', name: 'Books', sortableFields: [] });
    expect(await useCases.getCollection('books')).toMatchObject({ slug: 'books', itemCount: 3, updatedAt: '2025-02-01T00:00:00.000Z' });
    await expect(useCases.getCollection('films')).rejects.toMatchObject({ status: 404, message: 'Collection "films" not found' });
    await expect(useCases.getCollection('Not A Slug')).rejects.toMatchObject({ status: 404 });
  });

  it('lists the read model collections sorted by slug', async () => {
    const { useCases } = setup({ collections: [record('zines'), record('books')] });
    expect((await useCases.listCollections()).map((view) => view.slug)).toEqual(['books', 'zines']);
  });

  it('an update needs the item count first: an unreachable read model is 503 and nothing is written', async () => {
    const { world, useCases } = setup({ count: async () => Promise.reject(new Error('connection refused')) });
    await useCases.createCollection({ slug: 'books', name: 'Books', sortableFields: [] });
    await expect(useCases.updateCollection('books', { name: 'All books' })).rejects.toMatchObject({ status: 503 });
    expect(world.log).toHaveLength(1);
  });

  it('deletes the items of an active collection first, then the collection; a second delete is 404', async () => {
    const { useCases, deletions } = setup();
    await useCases.createCollection({ slug: 'books', name: 'Books', sortableFields: [] });
    expect(await useCases.deleteCollection('books', { idempotencyKey: 'k' })).toMatchObject({ deletedItems: 2, position: 2, value: null });
    expect(deletions).toEqual([['books', 'k']]);
    await expect(useCases.deleteCollection('books')).rejects.toMatchObject({ status: 404 });
    expect(deletions).toHaveLength(1);
  });
});
