import type { LocalCopy, WatchedItem } from './localCopy.js';
import type { StreamSink } from './streamListeners.js';
import type { CollectionPage } from './types.js';
import type { WatcherRegistry } from './watcherRegistry.js';

/**
 * Applies stream data to the local copy and tells the watchers, only for what is watched and only
 * when the value really changed (a new snapshot repeats what the client already knows).
 */
export function localCopySink(local: LocalCopy, items: WatcherRegistry<WatchedItem>, collections: WatcherRegistry<CollectionPage>): Pick<StreamSink, 'onItem' | 'onCollection'> {
  return {
    onItem(dataId, data) {
      if (!items.has(dataId)) return;
      const value = data === null ? null : { dataId, data };
      if (local.setItem(dataId, value)) items.notify(dataId, value);
    },
    onCollection(slug, page) {
      if (collections.has(slug) && local.setCollection(slug, page)) collections.notify(slug, page);
    },
  };
}
