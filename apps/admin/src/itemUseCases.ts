import { ConflictError, isValidDataId, itemDecider, NotFoundError, streamNames, ValidationError, type ItemData } from '@pubstream/domain';
import type { ReadModel } from '@pubstream/read-model';
import type { ActiveCollection } from './activeCollection.js';
import { deterministicUuid } from './idempotency.js';
import { required } from './required.js';
import type { WriteCommand } from './writeCommand.js';
import type { WriteOptions, Written } from './writeOutcome.js';
import { itemViewOf, type ItemView } from './writeViews.js';

export interface ItemUseCaseDeps {
  readonly write: WriteCommand;
  readonly readModel: Pick<ReadModel, 'getItem'>;
  readonly activeCollection: ActiveCollection;
  readonly newId: () => string;
}

const requireDataId = (dataId: string): void => {
  if (!isValidDataId(dataId)) throw new ValidationError('Invalid dataId format');
};

/** Items of an active collection: read from the read model, written (upsert, delete) through the decider. */
export const createItemUseCases = (deps: ItemUseCaseDeps) => {
  const { write, activeCollection } = deps;
  return {
    async getItem(slug: string, dataId: string): Promise<ItemView> {
      requireDataId(dataId);
      await activeCollection(slug);
      const item = await deps.readModel.getItem(dataId);
      if (!item || item.collectionId !== slug) throw new NotFoundError();
      return { id: item.id, dataId: item.dataId, collectionId: item.collectionId, data: item.data, createdAt: item.createdAt, updatedAt: item.updatedAt };
    },

    /** An upsert. With an Idempotency-Key the new item's id derives from it (a retry creates the same item). */
    async putItem(slug: string, dataId: string, data: ItemData, options: WriteOptions<ItemView> = {}): Promise<Written<ItemView>> {
      requireDataId(dataId);
      await activeCollection(slug);
      const id = options.idempotencyKey === undefined ? deps.newId() : deterministicUuid('item', options.idempotencyKey, dataId);
      return write(itemDecider, streamNames.item(dataId), { type: 'PutItem', id, dataId, collection: slug, data }, options, (decided) => {
        const view = required(itemViewOf(decided.history), () => new NotFoundError());
        if (view.collectionId !== slug) throw new ConflictError(`dataId "${dataId}" already belongs to collection "${view.collectionId}"`);
        return { value: view, created: decided.events[0]?.type === 'ItemCreated' };
      });
    },

    async deleteItem(slug: string, dataId: string, options: WriteOptions<null> = {}): Promise<Written<null>> {
      requireDataId(dataId);
      await activeCollection(slug);
      return write(itemDecider, streamNames.item(dataId), { type: 'DeleteItem', dataId, collection: slug }, options, () => ({ value: null, created: false }));
    },
  };
};
