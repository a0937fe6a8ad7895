import type { PubstreamEvent } from '@pubstream/domain';
import type { ItemRecord } from '@pubstream/read-model';
import { defineProjection, type ProjectedEvent, type ProjectionSpec } from './projection.js';

const idOf = (event: PubstreamEvent): string => {
  switch (event.type) {
    case 'ItemCreated':
    case 'ItemUpdated':
    case 'ItemDeleted':
      return event.data.dataId;
    default:
      return '';
  }
};

/** item by dataId: created with its id and createdAt, updated in place, deleted with a tombstone. */
export const itemSpec: ProjectionSpec<ItemRecord> = {
  name: 'items',
  handles: ['ItemCreated', 'ItemUpdated', 'ItemDeleted'],
  idOf,
  creates: ['ItemCreated'],
  async load(reads, ids) {
    // One round trip for every item of the batch (the projector never reads per event).
    const records = await reads.readModel.getItems(ids);
    return new Map(ids.map((id, i) => [id, records[i] ?? null]));
  },
  evolve(doc: ItemRecord | null, { event, revision, position, at }: ProjectedEvent): ItemRecord | null {
    switch (event.type) {
      case 'ItemCreated': {
        const { id, dataId, collection, data } = event.data;
        return { id, dataId, collectionId: collection, data, createdAt: at, updatedAt: at, version: revision, position };
      }
      case 'ItemUpdated':
        // An update of an item this model does not hold (its creation was skipped) writes nothing.
        return doc ? { ...doc, data: event.data.data, updatedAt: at, version: revision, position } : null;
      case 'ItemDeleted':
        return null;
      default:
        return doc;
    }
  },
  toOp(next, { event, revision, position }) {
    if (next) return { kind: 'item.put', item: next };
    if (event.type === 'ItemDeleted') {
      return { kind: 'item.delete', dataId: event.data.dataId, collectionId: event.data.collection, version: revision, position };
    }
    return null;
  },
};

export const itemProjection = defineProjection(itemSpec);
