import { maskApiKey } from '@pubstream/access';
import type { ApiKeyEvent, CollectionEvent, ItemEvent } from '@pubstream/domain';
import type { CollectionView, ItemView, KeyView } from './adminSchemas.js';
import type { KeyUsage } from '@pubstream/read-model';
import type { TimedEvent } from './commandHandler.js';

// The views are typed by the schemas the OpenAPI document is made from (adminSchemas.ts).
export type { CollectionView, ItemView, KeyView } from './adminSchemas.js';

// A write's answer is built from its stream's events, not read back from the read model, so a
// committed write can be answered while the read model is unreachable (docs/admin-api.md). Each
// fold below mirrors its projection in apps/projector/src/projections, `at` included, so the
// answer shows what the read model will hold once it has applied the write.

/** The item after `history`, or null when it does not exist (never created, or deleted). */
export const itemViewOf = (history: readonly TimedEvent<ItemEvent>[]): ItemView | null =>
  history.reduce<ItemView | null>((view, { event, at }) => {
    switch (event.type) {
      case 'ItemCreated': {
        const { id, dataId, collection, data } = event.data;
        return { id, dataId, collectionId: collection, data, createdAt: at, updatedAt: at };
      }
      case 'ItemUpdated':
        return view && { ...view, data: event.data.data, updatedAt: at };
      case 'ItemDeleted':
        return null;
      default:
        return view;
    }
  }, null);

/** The collection after `history` with the given item count, or null when it does not exist. */
export const collectionViewOf = (history: readonly TimedEvent<CollectionEvent>[], itemCount: number): CollectionView | null =>
  history.reduce<CollectionView | null>((view, { event, at }) => {
    switch (event.type) {
      case 'CollectionCreated':
      case 'CollectionUpdated': {
        const { slug, name, sortableFields } = event.data;
        return { slug, name, sortableFields, createdAt: event.type === 'CollectionCreated' ? at : (view?.createdAt ?? at), updatedAt: at, itemCount };
      }
      case 'CollectionDeleted':
        return null;
      default:
        return view;
    }
  }, null);

/** The key after `history` with its usage counters, or null when it does not exist. */
export const keyViewOf = (history: readonly TimedEvent<ApiKeyEvent>[], usage: KeyUsage | undefined): KeyView | null =>
  history.reduce<KeyView | null>((view, { event, at }) => {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { keyId, name, type, last4, allowedDomains, rateLimit } = event.data;
        const counters = { lastUsedAt: usage?.lastUsedAt ?? null, requestCount: usage?.requestCount ?? 0 };
        return { keyId, name, type, maskedKey: maskApiKey(type, last4), allowedDomains, rateLimit, createdAt: at, ...counters };
      }
      case 'ApiKeyUpdated': {
        const { name, allowedDomains, rateLimit } = event.data;
        return view && { ...view, name, allowedDomains, rateLimit };
      }
      case 'ApiKeyDeleted':
        return null;
      default:
        return view;
    }
  }, null);
