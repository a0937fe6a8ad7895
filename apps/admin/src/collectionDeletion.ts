import { NotFoundError, ServiceUnavailableError } from '@pubstream/domain';
import type { EventStore } from '@pubstream/event-store';
import type { ReadModel } from '@pubstream/read-model';
import { beforeCommit } from './beforeCommit.js';
import type { ItemWriter } from './itemWriter.js';
import type { ReadYourWrites } from './readYourWrites.js';

const DELETE_BATCH = 500;

/**
 * The first half of deleting a collection: its items, one ItemDeleted each (so live subscribers
 * see each delete), listed from a read model that has caught up with the log. With an
 * Idempotency-Key the item deletions derive their event ids from it, so a retry that finds some
 * already deleted appends nothing for those.
 */
export const createCollectionDeletion = (deps: { eventStore: Pick<EventStore, 'headPosition'>; readModel: Pick<ReadModel, 'getCollectionPage'>; readYourWrites: ReadYourWrites; writeItems: ItemWriter }) => {
  const { readModel, readYourWrites, writeItems } = deps;

  /** Item ids of a collection from the read model, once it has caught up with the log (else 503). */
  const listDataIds = async (slug: string): Promise<string[]> => {
    const head = await deps.eventStore.headPosition();
    if (!(await readYourWrites(head))) throw new ServiceUnavailableError('The read model has not caught up with the log; nothing was deleted, try again shortly');
    const dataIds: string[] = [];
    for (let offset = 0; ; offset += DELETE_BATCH) {
      const page = await beforeCommit('listing the items', () => readModel.getCollectionPage(slug, { sort: 'dataId', order: 'asc', offset, limit: DELETE_BATCH }));
      if (!page) break;
      dataIds.push(...page.items.map((item) => item.dataId));
      if (page.items.length < DELETE_BATCH) break;
    }
    return dataIds;
  };

  /** Deletes the items of a collection (one ItemDeleted each); returns how many and the last position. */
  const deleteItemsOf = async (slug: string, idempotencyKey: string | undefined): Promise<{ deletedItems: number; position: number | null }> => {
    const dataIds = await listDataIds(slug);
    let deletedItems = 0;
    let position: number | null = null;
    for (let start = 0; start < dataIds.length; start += DELETE_BATCH) {
      const chunk = dataIds.slice(start, start + DELETE_BATCH);
      const outcomes = await writeItems(chunk.map((dataId) => ({ command: { type: 'DeleteItem', dataId, collection: slug }, idempotencyKey })));
      for (const outcome of outcomes) {
        // NotFound: deleted meanwhile by someone else; that is the state we want anyway.
        if (!outcome.ok && !(outcome.error instanceof NotFoundError)) throw outcome.error;
        if (outcome.ok && outcome.change === 'deleted') deletedItems++;
        if (outcome.ok && outcome.position !== null) position = Math.max(position ?? 0, outcome.position);
      }
    }
    return { deletedItems, position };
  };

  return { deleteItemsOf };
};
