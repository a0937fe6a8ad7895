import type { ReadModelOp } from './projectionStore.js';

/** The op with its log position set (item and collection ops; others unchanged): for writers that
 * learn the position after building the op (test harnesses playing the projector). */
export const withPosition = (op: ReadModelOp, position: number): ReadModelOp => {
  switch (op.kind) {
    case 'item.put':
      return { ...op, item: { ...op.item, position } };
    case 'collection.put':
      return { ...op, collection: { ...op.collection, position } };
    case 'item.delete':
    case 'collection.delete':
      return { ...op, position };
    default:
      return op;
  }
};
