import type { KeyStore } from '../keyStore.js';
import type { KeyRecord, PlanRecord } from '../records.js';
import type { RedisCommands } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';
import { parseRecord, parseRecords } from './redisReplies.js';

/** Key records (by hash in their own slot, by id in one hash) and the plan on Redis. */
export const createRedisKeyStore = (commands: RedisCommands, key: RedisKeys): KeyStore => ({
  async getKeyByHash(keyHash) {
    const k = key.keyByHash(keyHash);
    return parseRecord<KeyRecord>(await commands.send(k, ['GET', k], true));
  },
  async getKey(keyId) {
    return parseRecord<KeyRecord>(await commands.send(key.keyList, ['HGET', key.keyList, keyId], true));
  },
  async listKeys() {
    const keys = parseRecords<KeyRecord>(await commands.send(key.keyList, ['HVALS', key.keyList], true));
    return keys.sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
  },
  async getPlan() {
    return parseRecord<PlanRecord>(await commands.send(key.plan, ['GET', key.plan], true));
  },
});
