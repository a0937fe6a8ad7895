import type { KeyStore } from './keyStore.js';
import type { MissConfirmation } from './missConfirmation.js';
import type { ReadModel } from './readModel.js';

/**
 * Read ports whose every answer comes from a caught-up read model (docs/read-models.md, "Unknown is
 * not missing"): each read runs, then `confirm()` checks the marker (a check sent after the read,
 * so data lost before the read cannot go unnoticed), else ServiceUnavailableError. For the admin,
 * where a list, a count or "not found" from an emptied or half-rebuilt store would mislead an
 * operator (or a write deciding on it) and where the extra round trip costs nothing that matters.
 * The public API checks its misses only (its hits stay one round trip).
 */
const confirmedAfter =
  <A extends unknown[], R>(gate: MissConfirmation, read: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const result = await read(...args);
    await gate.confirm();
    return result;
  };

export const caughtUpReadModel = (readModel: ReadModel, gate: MissConfirmation): ReadModel => ({
  getItem: confirmedAfter(gate, (dataId: string) => readModel.getItem(dataId)),
  getItems: confirmedAfter(gate, (dataIds: readonly string[]) => readModel.getItems(dataIds)),
  getCollection: confirmedAfter(gate, (slug: string) => readModel.getCollection(slug)),
  listCollections: confirmedAfter(gate, () => readModel.listCollections()),
  getCollectionPage: confirmedAfter(gate, (slug: string, query: Parameters<ReadModel['getCollectionPage']>[1]) => readModel.getCollectionPage(slug, query)),
  countItems: confirmedAfter(gate, (slug: string) => readModel.countItems(slug)),
  isCaughtUp: () => readModel.isCaughtUp(),
  appliedPosition: () => readModel.appliedPosition(),
  get atomicBatches() {
    return readModel.atomicBatches;
  },
});

export const caughtUpKeyReads = (keys: Pick<KeyStore, 'getKey' | 'listKeys'>, gate: MissConfirmation): Pick<KeyStore, 'getKey' | 'listKeys'> => ({
  getKey: confirmedAfter(gate, (keyId: string) => keys.getKey(keyId)),
  listKeys: confirmedAfter(gate, () => keys.listKeys()),
});
