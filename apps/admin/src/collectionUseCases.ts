import { collectionDecider, ConflictError, NotFoundError, streamNames, type SortableField } from '@pubstream/domain';
import type { ReadModel } from '@pubstream/read-model';
import type { ActiveCollection } from './activeCollection.js';
import { requireSlugShape } from './activeCollection.js';
import { beforeCommit } from './beforeCommit.js';
import type { CommandHandler } from './commandHandler.js';
import type { ReadYourWrites } from './readYourWrites.js';
import { required } from './required.js';
import type { WriteCommand } from './writeCommand.js';
import type { WriteOptions, Written } from './writeOutcome.js';
import { collectionViewOf, type CollectionView } from './writeViews.js';

export interface CollectionUseCaseDeps {
  readonly commands: Pick<CommandHandler, 'load'>;
  readonly write: WriteCommand;
  readonly readModel: Pick<ReadModel, 'getCollection' | 'listCollections' | 'countItems'>;
  readonly activeCollection: ActiveCollection;
  /** The first half of a collection's deletion (collectionDeletion.ts). */
  readonly deleteItemsOf: (slug: string, idempotencyKey: string | undefined) => Promise<{ deletedItems: number; position: number | null }>;
  readonly readYourWrites: ReadYourWrites;
}

export type CollectionInput = { slug: string; name: string; sortableFields: SortableField[] };

/** Collections: listed and read with their item counts from the read model, written through the decider. */
export const createCollectionUseCases = (deps: CollectionUseCaseDeps) => {
  const { commands, write, readModel, activeCollection } = deps;

  const collectionView = async (state: { slug: string; name: string; sortableFields: readonly SortableField[] }): Promise<CollectionView> => {
    const [record, itemCount] = await Promise.all([readModel.getCollection(state.slug), readModel.countItems(state.slug)]);
    return { slug: state.slug, name: state.name, sortableFields: state.sortableFields, createdAt: record?.createdAt ?? null, updatedAt: record?.updatedAt ?? null, itemCount };
  };

  return {
    async listCollections(): Promise<CollectionView[]> {
      const views = await Promise.all((await readModel.listCollections()).map((record) => collectionView(record)));
      return views.sort((a, b) => a.slug.localeCompare(b.slug));
    },

    async getCollection(slug: string): Promise<CollectionView> {
      return collectionView(await activeCollection(slug));
    },

    /** A new collection holds no items: its answer needs nothing from the read model. */
    createCollection(input: CollectionInput, options: WriteOptions<CollectionView> = {}): Promise<Written<CollectionView>> {
      return write(collectionDecider, streamNames.collection(input.slug), { type: 'CreateCollection', ...input }, options, (decided) => ({
        value: required(collectionViewOf(decided.history, 0), () => new ConflictError(`Collection "${input.slug}" was deleted`)),
        created: decided.events.some((event) => event.type === 'CollectionCreated'),
      }));
    },

    /** The item count is read before the write (503 when the read model is unreachable). */
    async updateCollection(slug: string, input: { name?: string; sortableFields?: SortableField[] }, options: WriteOptions<CollectionView> = {}): Promise<Written<CollectionView>> {
      requireSlugShape(slug);
      const itemCount = await beforeCommit('counting the items', () => readModel.countItems(slug));
      return write(collectionDecider, streamNames.collection(slug), { type: 'UpdateCollection', slug, ...input }, options, (decided) => ({
        value: required(collectionViewOf(decided.history, itemCount), () => new NotFoundError(`Collection "${slug}" not found`)),
        created: false,
      }));
    },

    /** Deletes the collection's items (one ItemDeleted each), then the collection. */
    async deleteCollection(slug: string, options: WriteOptions<null> = {}): Promise<Written<null> & { deletedItems: number }> {
      requireSlugShape(slug);
      const before = await commands.load(collectionDecider, streamNames.collection(slug));
      // A retried delete whose first attempt went through answers as it did then (decided below).
      const items = before.status === 'active' ? await deps.deleteItemsOf(slug, options.idempotencyKey) : { deletedItems: 0, position: null };
      const written = await write(collectionDecider, streamNames.collection(slug), { type: 'DeleteCollection', slug }, options, () => ({ value: null, created: false }));
      if (written.position !== null || items.position === null) return { ...written, deletedItems: items.deletedItems };
      return { ...written, position: items.position, visible: await deps.readYourWrites(items.position), deletedItems: items.deletedItems };
    },
  };
};
