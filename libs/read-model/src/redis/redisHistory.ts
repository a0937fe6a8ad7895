import { EXPIRED, type ChangeEntry, type ChangeHistory } from '../changeHistory.js';
import { APPLIED_CHECKPOINT } from '../readModel.js';
import type { RedisCommands, Reply } from './redisCommands.js';
import type { RedisKeys } from './redisKeys.js';

/** `<position>:<slug>` of an item's history index. */
const pointerOf = (member: string): { position: number; slug: string } => {
  const colon = member.indexOf(':');
  return { position: Number(member.slice(0, colon)), slug: member.slice(colon + 1) };
};

/**
 * The change history on Redis (docs/read-models.md, "Change history"). Every read takes the
 * entries first and the floor after: the floor only grows and trimming never passes it, so an
 * entry trimmed before the read shows as expired instead of a silent gap. Entries are immutable,
 * so reading an item's index and then the entries in a second round trip is safe.
 */
export const createRedisHistory = (commands: RedisCommands, key: RedisKeys, now: () => Date): ChangeHistory => {
  const floor = async (): Promise<number> => {
    const args = [key.historyTimes, key.checkpoints, APPLIED_CHECKPOINT, String(now().getTime())];
    return Number(await commands.run('HISTORY_FLOOR', [key.historyMeta], args, true));
  };

  /** Every pointer of these items' indexes in (after, until]. One command per item, all at once. */
  const pointers = async (dataIds: readonly string[], after: number, until: number): Promise<{ position: number; slug: string }[]> => {
    const replies = await Promise.all(
      dataIds.map((id) => commands.send(key.itemHistory(id), ['ZRANGEBYSCORE', key.itemHistory(id), `(${after}`, String(until)], true)),
    );
    return replies.flatMap((reply) => (reply as string[]).map(pointerOf));
  };

  /** The entries the pointers name, per collection in one script each, all at once. */
  const entriesAt = async (found: readonly { position: number; slug: string }[]): Promise<ChangeEntry[]> => {
    const bySlug = new Map<string, string[]>();
    for (const { position, slug } of found) bySlug.set(slug, [...(bySlug.get(slug) ?? []), String(position)]);
    const replies = await Promise.all([...bySlug].map(([slug, positions]) => commands.run('HISTORY_ENTRIES', [key.collectionHistory(slug)], positions, true)));
    return replies.flatMap((reply) => (reply as string[]).map((json) => JSON.parse(json) as ChangeEntry));
  };

  return {
    historyFloor: floor,
    async itemChanges(dataIds, after, until) {
      const found = await pointers([...new Set(dataIds)], after, until);
      const entries = found.length > 0 ? await entriesAt(found) : [];
      // A pointer whose entry is gone was trimmed meanwhile: the floor has passed `after`.
      if (after < (await floor()) || entries.length < found.length) return EXPIRED;
      const wanted = new Set(dataIds);
      return entries.filter((e) => wanted.has(e.dataId)).sort((a, b) => a.position - b.position);
    },
    async collectionChanges(slug, after, limit) {
      const args = [key.collectionPrefix(slug), String(after), String(limit)];
      const reply = (await commands.run('COLLECTION_CHANGES', [key.collectionHistory(slug)], args, true)) as Reply[];
      if (after < (await floor())) return EXPIRED;
      const [last, more, ...jsons] = reply;
      return { lastChange: Number(last), hasMore: more === 1, changes: (jsons as string[]).map((json) => JSON.parse(json) as ChangeEntry) };
    },
  };
};
