import { createActiveCollection } from './activeCollection.js';
import type { AdminEventStore, AdminStores } from './adminStores.js';
import { createCollectionDeletion } from './collectionDeletion.js';
import { createCollectionUseCases } from './collectionUseCases.js';
import { createCommandHandler } from './commandHandler.js';
import { createItemUseCases } from './itemUseCases.js';
import { createItemWriter } from './itemWriter.js';
import { createKeyUseCases } from './keyUseCases.js';
import { createCurrentPlan, createPlanUseCases } from './planUseCases.js';
import type { ReadYourWrites } from './readYourWrites.js';
import { createWriteCommand } from './writeCommand.js';

export type { PlanView } from './planUseCases.js';
export type { CollectionView, ItemView, KeyView } from './writeViews.js';
export type { RequestBinding, WriteOptions, WriteResult, Written } from './writeOutcome.js';

export interface AdminServiceDeps {
  readonly eventStore: AdminEventStore;
  readonly stores: Pick<AdminStores, 'readModel' | 'keys' | 'usage'>;
  readonly readYourWrites: ReadYourWrites;
  readonly now: () => Date;
  readonly newId: () => string;
}

/**
 * The admin's use cases, one module each (collections, items, keys, plan): every write is
 * command → decider → append, answered from its own events (then read-your-writes decides between
 * the answer and 202, docs/admin-api.md); reads come from the read models. Shared by the HTTP
 * routes, the dashboard and the CLI.
 */
export const createAdminService = (deps: AdminServiceDeps) => {
  const { eventStore, readYourWrites, newId } = deps;
  const { readModel, keys, usage } = deps.stores;
  const commands = createCommandHandler({ eventStore, now: deps.now, newId });
  const writeItems = createItemWriter({ eventStore, commands });
  const write = createWriteCommand({ commands, readYourWrites });
  const activeCollection = createActiveCollection(commands);
  const currentPlan = createCurrentPlan(commands);
  const { deleteItemsOf } = createCollectionDeletion({ eventStore, readModel, readYourWrites, writeItems });
  return {
    commands,
    writeItems,
    activeCollection,
    ...createCollectionUseCases({ commands, write, readModel, activeCollection, deleteItemsOf, readYourWrites }),
    ...createItemUseCases({ write, readModel, activeCollection, newId }),
    ...createKeyUseCases({ write, keys, usage, currentPlan, newId }),
    ...createPlanUseCases({ currentPlan, write, keys }),
  };
};

export type AdminService = ReturnType<typeof createAdminService>;
