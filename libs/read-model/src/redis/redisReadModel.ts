import { ValidationError } from '@pubstream/domain';
import { APPLIED_CHECKPOINT, checkPageQuery, type ReadModel } from '../readModel.js';
import type { CollectionRecord, ItemRecord } from '../records.js';
import type { RedisCommands, Reply } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';
import { parseRecord, parseRecords } from './redisReplies.js';

/** Every item has its own slot on a cluster: one GET per distinct key, all issued at once, so
 * node-redis pipelines them per node and the batch costs one round trip of latency. */
const getEach = async (commands: RedisCommands, keys: string[]): Promise<(ItemRecord | null)[]> => {
  const unique = [...new Set(keys)];
  const replies = await Promise.all(unique.map((k) => commands.send(k, ['GET', k], true)));
  const byKey = new Map(unique.map((k, i) => [k, parseRecord<ItemRecord>(replies[i])]));
  return keys.map((k) => byKey.get(k) ?? null);
};

/** The public reads on Redis: records by key, a page in one script (docs/read-models.md). */
export const createRedisReadModel = (commands: RedisCommands, key: RedisKeys): ReadModel => ({
  // One MGET on one node is atomic; on a cluster every item is its own GET (docs/public-api.md, X-Position).
  atomicBatches: !commands.cluster,
  async getItem(dataId) {
    const k = key.item(dataId);
    return parseRecord<ItemRecord>(await commands.send(k, ['GET', k], true));
  },
  async getItems(dataIds) {
    if (dataIds.length === 0) return [];
    const keys = dataIds.map(key.item);
    if (commands.cluster) return getEach(commands, keys);
    return ((await commands.send(keys[0] as string, ['MGET', ...keys], true)) as Reply[]).map((json) => parseRecord<ItemRecord>(json));
  },
  async getCollection(slug) {
    const record = key.collectionRecord(slug);
    return parseRecord<CollectionRecord>(await commands.send(record, ['GET', record], true));
  },
  async listCollections() {
    const collections = parseRecords<CollectionRecord>(await commands.send(key.collectionList, ['HVALS', key.collectionList], true));
    return collections.sort((a, b) => (a.slug < b.slug ? -1 : 1));
  },
  async getCollectionPage(slug, query) {
    checkPageQuery(query);
    const builtIn = query.sort === 'createdAt' || query.sort === 'updatedAt' || query.sort === 'dataId';
    const args = [key.collectionPrefix(slug), query.sort, builtIn ? 'id' : 'field', query.order, String(query.offset), String(query.limit)];
    const reply = await commands.run('COLLECTION_PAGE', [key.collectionRecord(slug)], args, true);
    if (!Array.isArray(reply)) return null;
    if (reply[0] === -1) throw new ValidationError(`Unknown sort field "${query.sort}"`);
    const [total, last, ...jsons] = reply as Reply[];
    return { total: Number(total), position: Number(last), items: jsons.map((json) => parseRecord<ItemRecord>(json) as ItemRecord) };
  },
  async countItems(slug) {
    const items = key.collectionItems(slug);
    return Number(await commands.send(items, ['HLEN', items], true));
  },
  async isCaughtUp() {
    return (await commands.send(key.caughtUp, ['EXISTS', key.caughtUp], true)) === 1;
  },
  async appliedPosition() {
    const reply = await commands.send(key.checkpoints, ['HGET', key.checkpoints, APPLIED_CHECKPOINT], true);
    return typeof reply === 'string' ? Number(reply) : 0;
  },
});
