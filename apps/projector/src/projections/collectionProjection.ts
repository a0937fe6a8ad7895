import type { PubstreamEvent } from '@pubstream/domain';
import type { CollectionRecord } from '@pubstream/read-model';
import { defineProjection, loadEach, type ProjectedEvent, type ProjectionSpec } from './projection.js';

const idOf = (event: PubstreamEvent): string => {
  switch (event.type) {
    case 'CollectionCreated':
    case 'CollectionUpdated':
    case 'CollectionDeleted':
      return event.data.slug;
    default:
      return '';
  }
};

/**
 * Collection records. Deleting a collection does not touch its items here: the admin deletes
 * them first (ItemDeleted events), then appends CollectionDeleted.
 */
export const collectionSpec: ProjectionSpec<CollectionRecord> = {
  name: 'collections',
  handles: ['CollectionCreated', 'CollectionUpdated', 'CollectionDeleted'],
  idOf,
  creates: ['CollectionCreated'],
  load: (reads, slugs) => loadEach(slugs, (slug) => reads.readModel.getCollection(slug)),
  evolve(doc: CollectionRecord | null, { event, revision, position, at }: ProjectedEvent): CollectionRecord | null {
    switch (event.type) {
      case 'CollectionCreated': {
        const { slug, name, sortableFields } = event.data;
        return { slug, name, sortableFields, createdAt: at, updatedAt: at, version: revision, position };
      }
      case 'CollectionUpdated': {
        const { slug, name, sortableFields } = event.data;
        // Without a stored record (its creation was skipped) the update still yields one.
        return { slug, name, sortableFields, createdAt: doc?.createdAt ?? at, updatedAt: at, version: revision, position };
      }
      case 'CollectionDeleted':
        return null;
      default:
        return doc;
    }
  },
  toOp(next, { event, revision, position }) {
    if (next) return { kind: 'collection.put', collection: next };
    if (event.type === 'CollectionDeleted') return { kind: 'collection.delete', slug: event.data.slug, version: revision, position };
    return null;
  },
};

export const collectionProjection = defineProjection(collectionSpec);
