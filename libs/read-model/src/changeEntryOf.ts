import type { ChangeEntry } from './changeHistory.js';
import type { ReadModelOp } from './projectionStore.js';

/** The history entry of an item op (null for every other op). */
export const changeEntryOf = (op: ReadModelOp): ChangeEntry | null => {
  if (op.kind === 'item.put') {
    const { position, dataId, collectionId, version, data } = op.item;
    return { position, dataId, collectionId, action: 'update', version, data };
  }
  if (op.kind === 'item.delete') {
    const { position, dataId, collectionId, version } = op;
    return { position, dataId, collectionId, action: 'delete', version, data: {} };
  }
  return null;
};
