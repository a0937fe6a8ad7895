import type { ChangeMessage } from '@pubstream/change-stream';
import type { PositionedOp } from './projections/projection.js';

/** The change message announcing one projected write (published after the write is durable). */
export const changeMessageOf = ({ op, position }: PositionedOp): ChangeMessage => {
  switch (op.kind) {
    case 'item.put': {
      const { dataId, collectionId, version, data } = op.item;
      return { kind: 'item', action: 'update', dataId, collectionId, version, position, data };
    }
    case 'item.delete':
      return { kind: 'item', action: 'delete', dataId: op.dataId, collectionId: op.collectionId, version: op.version, position, data: {} };
    case 'collection.put':
      return { kind: 'collection', action: 'update', slug: op.collection.slug, version: op.collection.version, position };
    case 'collection.delete':
      return { kind: 'collection', action: 'delete', slug: op.slug, version: op.version, position };
    case 'key.put':
      return { kind: 'key', action: 'update', keyId: op.key.keyId, keyHash: op.key.keyHash, version: op.key.version, position };
    case 'key.delete':
      return { kind: 'key', action: 'delete', keyId: op.keyId, keyHash: op.keyHash, version: op.version, position };
    case 'plan.put':
      return { kind: 'plan', action: 'update', version: op.plan.version, position };
    default: {
      const _never: never = op;
      return _never;
    }
  }
};
