import type { CollectionPage, ItemSummary } from './types.js';

/** The value of a watched item: the item, or null when the server says it does not exist (or was deleted). */
export type WatchedItem = ItemSummary | null;

/**
 * The client's current copy of everything watched, fed by stream snapshots and deltas. Each setter
 * reports whether the value changed, so listeners hear only about real changes.
 */
export interface LocalCopy {
  item(dataId: string): WatchedItem | undefined;
  collection(slug: string): CollectionPage | undefined;
  setItem(dataId: string, value: WatchedItem): boolean;
  setCollection(slug: string, page: CollectionPage): boolean;
  forgetItem(dataId: string): void;
  forgetCollection(slug: string): void;
}

/** Creates an empty {@link LocalCopy}. */
export function createLocalCopy(): LocalCopy {
  const items = new Map<string, { value: WatchedItem; json: string }>();
  const collections = new Map<string, { value: CollectionPage; json: string }>();
  return {
    item: (dataId) => items.get(dataId)?.value,
    collection: (slug) => collections.get(slug)?.value,
    setItem(dataId, value) {
      const json = JSON.stringify(value);
      if (items.get(dataId)?.json === json) return false;
      items.set(dataId, { value, json });
      return true;
    },
    setCollection(slug, page) {
      const json = JSON.stringify(page);
      if (collections.get(slug)?.json === json) return false;
      collections.set(slug, { value: page, json });
      return true;
    },
    forgetItem: (dataId) => void items.delete(dataId),
    forgetCollection: (slug) => void collections.delete(slug),
  };
}
