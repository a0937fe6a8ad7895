import { ConflictError, NotFoundError, ValidationError } from './errors.js';
import type { CollectionEvent, SortableField } from './events.js';
import { assertNever, type Decider } from './decider.js';

export type CollectionCommand =
  | { type: 'CreateCollection'; slug: string; name: string; sortableFields: SortableField[] }
  | { type: 'UpdateCollection'; slug: string; name?: string; sortableFields?: SortableField[] }
  | { type: 'DeleteCollection'; slug: string };

export type CollectionState =
  | { status: 'none' }
  | { status: 'active'; slug: string; name: string; sortableFields: SortableField[] }
  | { status: 'deleted'; slug: string };

/** Built-in sort keys every collection has; declared fields may not shadow them. */
export const BUILT_IN_SORT_FIELDS = ['createdAt', 'updatedAt', 'dataId'] as const;

const checkFields = (fields: SortableField[]): void => {
  const names = new Set<string>();
  for (const field of fields) {
    if ((BUILT_IN_SORT_FIELDS as readonly string[]).includes(field.name)) {
      throw new ValidationError(`Sortable field "${field.name}" is built in and cannot be declared`);
    }
    if (names.has(field.name)) throw new ValidationError(`Sortable field "${field.name}" is declared twice`);
    names.add(field.name);
  }
  if (fields.length > 16) throw new ValidationError('A collection may declare at most 16 sortable fields');
};

export const collectionDecider: Decider<CollectionCommand, CollectionState, CollectionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateCollection': {
        if (state.status === 'active') throw new ConflictError(`Collection "${command.slug}" already exists`);
        checkFields(command.sortableFields);
        const { slug, name, sortableFields } = command;
        return [{ type: 'CollectionCreated', data: { slug, name, sortableFields } }];
      }
      case 'UpdateCollection': {
        if (state.status !== 'active') throw new NotFoundError(`Collection "${command.slug}" not found`);
        const name = command.name ?? state.name;
        const sortableFields = command.sortableFields ?? state.sortableFields;
        checkFields(sortableFields);
        if (name === state.name && JSON.stringify(sortableFields) === JSON.stringify(state.sortableFields)) return [];
        return [{ type: 'CollectionUpdated', data: { slug: command.slug, name, sortableFields } }];
      }
      case 'DeleteCollection': {
        if (state.status !== 'active') throw new NotFoundError(`Collection "${command.slug}" not found`);
        return [{ type: 'CollectionDeleted', data: { slug: command.slug } }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'CollectionCreated':
      case 'CollectionUpdated':
        return { status: 'active', ...event.data };
      case 'CollectionDeleted':
        return { status: 'deleted', slug: event.data.slug };
      default:
        return assertNever(event);
    }
  },
};
