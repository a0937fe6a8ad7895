import { collectionDecider, isValidSlug, NotFoundError, streamNames, type CollectionState } from '@pubstream/domain';
import { echoInput } from '@pubstream/http';
import type { CommandHandler } from './commandHandler.js';

export type ActiveCollectionState = Extract<CollectionState, { status: 'active' }>;

/** Collection slugs come from URLs: one that cannot exist is simply not found. */
export const requireSlugShape = (slug: string): void => {
  if (!isValidSlug(slug)) throw new NotFoundError(`Collection "${echoInput(slug)}" not found`);
};

/** The collection's state from its stream (not the read model), or 404 when it does not exist now. */
export const createActiveCollection =
  (commands: Pick<CommandHandler, 'load'>) =>
  async (slug: string): Promise<ActiveCollectionState> => {
    requireSlugShape(slug);
    const state = await commands.load(collectionDecider, streamNames.collection(slug));
    if (state.status !== 'active') throw new NotFoundError(`Collection "${slug}" not found`);
    return state;
  };

export type ActiveCollection = ReturnType<typeof createActiveCollection>;
