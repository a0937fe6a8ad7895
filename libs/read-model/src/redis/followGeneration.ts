import type { ChangeHistory } from '../changeHistory.js';
import type { KeyStore } from '../keyStore.js';
import type { ProjectionStore } from '../projectionStore.js';
import type { ReadModel } from '../readModel.js';

/*
 * Ports that call, on every call, the port of the generation active at that moment: the
 * generational stores swap what `current` returns when the pointer moves. Only the ports whose
 * records are built from events follow; usage stays under the root.
 */

export const followReadModel = (current: () => ReadModel): ReadModel => ({
  getItem: (dataId) => current().getItem(dataId),
  getItems: (dataIds) => current().getItems(dataIds),
  getCollection: (slug) => current().getCollection(slug),
  listCollections: () => current().listCollections(),
  getCollectionPage: (slug, query) => current().getCollectionPage(slug, query),
  countItems: (slug) => current().countItems(slug),
  isCaughtUp: () => current().isCaughtUp(),
  appliedPosition: () => current().appliedPosition(),
  get atomicBatches() {
    return current().atomicBatches;
  },
});

export const followHistory = (current: () => ChangeHistory): ChangeHistory => ({
  historyFloor: () => current().historyFloor(),
  itemChanges: (dataIds, after, until) => current().itemChanges(dataIds, after, until),
  collectionChanges: (slug, after, limit) => current().collectionChanges(slug, after, limit),
});

export const followKeyStore = (current: () => KeyStore): KeyStore => ({
  getKeyByHash: (keyHash) => current().getKeyByHash(keyHash),
  getKey: (keyId) => current().getKey(keyId),
  listKeys: () => current().listKeys(),
  getPlan: () => current().getPlan(),
});

export const followProjectionStore = (current: () => ProjectionStore): ProjectionStore => ({
  apply: (ops, checkpoint, options) => current().apply(ops, checkpoint, options),
  acquireLease: (name, holder, ttlMs) => current().acquireLease(name, holder, ttlMs),
  renewLease: (lease, ttlMs) => current().renewLease(lease, ttlMs),
  releaseLease: (lease) => current().releaseLease(lease),
  getCheckpoint: (projection) => current().getCheckpoint(projection),
  markCaughtUp: (checkpoint) => current().markCaughtUp(checkpoint),
});
