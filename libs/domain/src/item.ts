import { ConflictError, NotFoundError } from './errors.js';
import type { ItemData, ItemEvent } from './events.js';
import { assertNever, type Decider } from './decider.js';

export type ItemCommand =
  /** Upsert: creates the item, or replaces its data. `id` is used only on creation. */
  | { type: 'PutItem'; id: string; dataId: string; collection: string; data: ItemData }
  | { type: 'DeleteItem'; dataId: string; collection: string };

export type ItemState =
  | { status: 'none' }
  | { status: 'active'; id: string; dataId: string; collection: string; data: ItemData }
  | { status: 'deleted'; dataId: string; collection: string };

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export const itemDecider: Decider<ItemCommand, ItemState, ItemEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'PutItem': {
        const { dataId, collection, data } = command;
        if (state.status === 'active') {
          if (state.collection !== collection) {
            throw new ConflictError(`dataId "${dataId}" already belongs to collection "${state.collection}"`);
          }
          // Writing the same data again changes nothing: retries and re-imports stay quiet.
          return sameJson(state.data, data) ? [] : [{ type: 'ItemUpdated', data: { dataId, collection, data } }];
        }
        return [{ type: 'ItemCreated', data: { id: command.id, dataId, collection, data } }];
      }
      case 'DeleteItem': {
        if (state.status !== 'active' || state.collection !== command.collection) throw new NotFoundError();
        return [{ type: 'ItemDeleted', data: { dataId: command.dataId, collection: command.collection } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ItemCreated':
        return { status: 'active', ...event.data };
      case 'ItemUpdated':
        return state.status === 'active' ? { ...state, data: event.data.data } : state;
      case 'ItemDeleted':
        return { status: 'deleted', dataId: event.data.dataId, collection: event.data.collection };
      default:
        return assertNever(event);
    }
  },
};
