import type { KeyStore } from '../keyStore.js';
import type { MemoryRecords } from './memoryRecords.js';

/** Key records and the plan, read from the memory records. */
export const createMemoryKeyStore = (records: MemoryRecords): KeyStore => ({
  async getKeyByHash(keyHash) {
    return records.keysByHash.get(keyHash) ?? null;
  },
  async getKey(keyId) {
    return records.keysById.get(keyId) ?? null;
  },
  async listKeys() {
    return [...records.keysById.values()].sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
  },
  async getPlan() {
    return records.plan;
  },
});
