import type { CollectionRecord, ItemRecord, KeyRecord, ReadModelOp } from '@pubstream/read-model';
import type { ProjectionReads } from './projections/projection.js';

/**
 * The reads of `base`, except for the records `ops` write: those answer what the ops wrote (null
 * for a deletion). It lets the rebuild fold batch n+1 while batch n is still being written
 * (docs/projections.md, "Rebuilds"): every record batch n touches comes from its ops, every other
 * record was last written by a batch that is already applied.
 */
export const overlayReads = (base: ProjectionReads, ops: readonly ReadModelOp[]): ProjectionReads => {
  if (ops.length === 0) return base;
  const items = new Map<string, ItemRecord | null>();
  const collections = new Map<string, CollectionRecord | null>();
  const keys = new Map<string, KeyRecord | null>();
  for (const op of ops) {
    if (op.kind === 'item.put') items.set(op.item.dataId, op.item);
    else if (op.kind === 'item.delete') items.set(op.dataId, null);
    else if (op.kind === 'collection.put') collections.set(op.collection.slug, op.collection);
    else if (op.kind === 'collection.delete') collections.set(op.slug, null);
    else if (op.kind === 'key.put') keys.set(op.key.keyId, op.key);
    else if (op.kind === 'key.delete') keys.set(op.keyId, null);
  }
  return {
    readModel: {
      async getItems(dataIds) {
        const missing = dataIds.filter((id) => !items.has(id));
        const loaded = missing.length > 0 ? await base.readModel.getItems(missing) : [];
        const byId = new Map(missing.map((id, i) => [id, loaded[i] ?? null]));
        return dataIds.map((id) => (items.has(id) ? (items.get(id) ?? null) : (byId.get(id) ?? null)));
      },
      getCollection: async (slug) => (collections.has(slug) ? (collections.get(slug) ?? null) : base.readModel.getCollection(slug)),
    },
    keys: {
      getKey: async (keyId) => (keys.has(keyId) ? (keys.get(keyId) ?? null) : base.keys.getKey(keyId)),
    },
  };
};
